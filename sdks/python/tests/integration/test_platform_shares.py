"""Shared conversations through the SDK against the platform: the owner shares a session, anyone reads it without an
account, sharing again brings the link up to date, and stopping makes the link a 404."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest

import kasa
from kasa import AsyncKasa, Kasa
from platform_support import DEFAULT_TEXT, new_person


def test_shares_a_conversation_that_anyone_reads_until_its_owner_stops_sharing(client: Kasa, base_url: str) -> None:
    session = client.chat.sessions.create(persona_id="ticha", title="Algebra")
    client.chat.messages.send(session["id"], "What is 2 + 2?")

    link = client.chat.sessions.share(session["id"])
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", link["token"])
    assert (link["sessionId"], link["messageCount"], link["path"]) == (session["id"], 2, f"/share/{link['token']}")
    assert client.chat.sessions.get_share(session["id"]) == link

    with Kasa(base_url=base_url) as anyone:
        shared = anyone.chat.sessions.read_shared(link["token"])
        assert (shared["title"], shared["persona"]["id"], shared["truncated"]) == ("Algebra", "ticha", False)
        assert shared["persona"]["name"]
        assert [(m["role"], m["content"]) for m in shared["messages"]] == [
            ("user", "What is 2 + 2?"),
            ("assistant", DEFAULT_TEXT),
        ]
        # Nothing about the owner, only the conversation.
        assert set(shared) == {"title", "persona", "sharedAt", "messages", "truncated"}

        # A message sent after sharing is not shown until the conversation is shared again, under the same link.
        client.chat.messages.send(session["id"], "And 3 + 3?")
        assert len(anyone.chat.sessions.read_shared(link["token"])["messages"]) == 2
        again = client.chat.sessions.share(session["id"])
        assert (again["token"], again["messageCount"]) == (link["token"], 4)
        assert again["sharedAt"] >= link["sharedAt"]
        assert len(anyone.chat.sessions.read_shared(link["token"])["messages"]) == 4

        client.chat.sessions.stop_sharing(session["id"])
        with pytest.raises(kasa.NotFoundError) as revoked:
            anyone.chat.sessions.read_shared(link["token"])
        assert (revoked.value.status, revoked.value.code) == (404, "not_found")
    with pytest.raises(kasa.NotFoundError):
        client.chat.sessions.get_share(session["id"])
    # Stopping again is not an error; sharing again makes a new link (the old one stays dead).
    client.chat.sessions.stop_sharing(session["id"])
    renewed = client.chat.sessions.share(session["id"])
    assert renewed["token"] != link["token"]
    with pytest.raises(kasa.NotFoundError):
        client.chat.sessions.read_shared(link["token"])


def test_someone_elses_session_cannot_be_shared_and_an_empty_one_is_a_400(signed_in: Callable[[], Kasa]) -> None:
    owner, stranger = signed_in(), signed_in()
    session = owner.chat.sessions.create(persona_id="kasa", title="Mine")
    owner.chat.messages.send(session["id"], "Hello")
    link = owner.chat.sessions.share(session["id"])

    with pytest.raises(kasa.NotFoundError) as raised:
        stranger.chat.sessions.share(session["id"])
    assert raised.value.code == "not_found"
    with pytest.raises(kasa.NotFoundError):
        stranger.chat.sessions.get_share(session["id"])
    with pytest.raises(kasa.NotFoundError):
        stranger.chat.sessions.stop_sharing(session["id"])
    # The stranger's attempts changed nothing: the link still works.
    assert owner.chat.sessions.read_shared(link["token"])["title"] == "Mine"

    empty = owner.chat.sessions.create(persona_id="kasa", title="Nothing yet")
    with pytest.raises(kasa.BadRequestError) as refused:
        owner.chat.sessions.share(empty["id"])
    assert refused.value.status == 400
    with pytest.raises(kasa.NotFoundError):
        owner.chat.sessions.get_share(empty["id"])


def test_a_token_that_was_never_shared_or_is_malformed_is_a_404(client: Kasa) -> None:
    for token in ("A" * 22, "not a token"):
        with pytest.raises(kasa.NotFoundError) as raised:
            client.chat.sessions.read_shared(token)
        assert raised.value.status == 404


def test_the_async_client_shares_reads_and_stops_sharing(base_url: str) -> None:
    async def run() -> None:
        async with AsyncKasa(base_url=base_url) as owner, AsyncKasa(base_url=base_url) as anyone:
            await owner.auth.register(**new_person())
            session = await owner.chat.sessions.create(persona_id="nana", title="Kumasi")
            await owner.chat.messages.send(session["id"], "Akwaaba")
            link = await owner.chat.sessions.share(session["id"])
            assert await owner.chat.sessions.get_share(session["id"]) == link
            shared = await anyone.chat.sessions.read_shared(link["token"])
            assert [m["content"] for m in shared["messages"]] == ["Akwaaba", DEFAULT_TEXT]
            await owner.chat.sessions.stop_sharing(session["id"])
            with pytest.raises(kasa.NotFoundError):
                await anyone.chat.sessions.read_shared(link["token"])

    asyncio.run(run())
