"""Personas, sessions and messages through the SDK against the platform, sent whole and streamed, stopped and
followed again; messages edited, answers regenerated and earlier versions shown again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

import kasa
from platform_support import DEFAULT_TEXT, FakeProvider, eventually
from kasa import AsyncKasa, DoneEvent, Kasa, MetaEvent, ReplyEvent, TokenEvent

UNKNOWN_SESSION = "0123456789abcdef01234567"


def tokens_of(events: list[ReplyEvent]) -> list[str]:
    return [event.text for event in events if isinstance(event, TokenEvent)]


def test_lists_the_six_personas(client: Kasa) -> None:
    ids = {persona["id"] for persona in client.personas.list()}
    assert {"kasa", "merla", "ticha", "massa", "nana", "dokta"} <= ids


def test_creates_lists_renames_and_deletes_a_session_and_sends_a_message(client: Kasa) -> None:
    session = client.chat.sessions.create(persona_id="ticha", title="Algebra")
    assert (session["personaId"], session["title"]) == ("ticha", "Algebra")

    reply = client.chat.messages.send(session["id"], "What is 2 + 2?", language="en")
    assert (reply["role"], reply["content"], reply["status"]) == ("assistant", DEFAULT_TEXT, "complete")
    assert reply["userMessageId"]

    page = client.chat.messages.list(session["id"])
    assert [(m["role"], m["content"]) for m in page["messages"]] == [
        ("user", "What is 2 + 2?"),
        ("assistant", DEFAULT_TEXT),
    ]
    assert page["nextCursor"] is None
    one = client.chat.sessions.get(session["id"], limit=1)
    assert [m["role"] for m in one["messages"]] == ["assistant"]
    assert one["nextCursor"] is not None
    older = client.chat.messages.list(session["id"], limit=1, cursor=one["nextCursor"])
    assert [m["role"] for m in older["messages"]] == ["user"]

    assert session["id"] in [s["id"] for s in client.chat.sessions.list(limit=10)["sessions"]]
    assert client.chat.sessions.rename(session["id"], "Maths")["title"] == "Maths"

    client.chat.sessions.delete(session["id"])
    with pytest.raises(kasa.NotFoundError) as raised:
        client.chat.sessions.get(session["id"])
    assert (raised.value.status, raised.value.code) == (404, "not_found")


def test_another_persons_session_is_a_404_everywhere(signed_in: Callable[[], Kasa]) -> None:
    owner, stranger = signed_in(), signed_in()
    session = owner.chat.sessions.create(persona_id="kasa", title="Mine")
    reply = owner.chat.messages.send(session["id"], "Hello")
    with pytest.raises(kasa.NotFoundError):
        stranger.chat.sessions.get(session["id"])
    with pytest.raises(kasa.NotFoundError):
        stranger.chat.messages.send(session["id"], "Hi")
    with pytest.raises(kasa.NotFoundError) as raised:
        stranger.chat.messages.stream(session["id"], "Hi")
    assert raised.value.code == "not_found"
    with pytest.raises(kasa.NotFoundError):
        stranger.chat.messages.resume(session["id"], reply["id"])
    with pytest.raises(kasa.NotFoundError):
        stranger.chat.sessions.delete(session["id"])
    # Still there for its owner.
    assert owner.chat.sessions.get(session["id"])["title"] == "Mine"


def test_an_unknown_session_is_a_404(client: Kasa) -> None:
    with pytest.raises(kasa.NotFoundError):
        client.chat.sessions.get(UNKNOWN_SESSION)


def test_bad_input_is_a_400_naming_the_field(client: Kasa) -> None:
    with pytest.raises(kasa.BadRequestError) as unknown_persona:
        client.chat.sessions.create(persona_id="nobody", title="Who?")
    assert unknown_persona.value.status == 400

    session = client.chat.sessions.create(persona_id="kasa", title="Empty")
    with pytest.raises(kasa.BadRequestError) as empty:
        client.chat.messages.send(session["id"], "   ")
    assert empty.value.code == "validation_failed"
    assert "content" in {issue["path"] for issue in empty.value.details}
    with pytest.raises(kasa.BadRequestError):
        client.chat.messages.stream(session["id"], "Hi", language="not a language!")
    with pytest.raises(kasa.BadRequestError):
        client.chat.sessions.get("not-an-id")


def test_edits_a_message_regenerates_the_answer_and_shows_the_first_version_again(
    client: Kasa, provider: FakeProvider
) -> None:
    session = client.chat.sessions.create(persona_id="nana", title="Versions")
    provider.answer("Kejetia market and the Manhyia Palace.")
    first = client.chat.messages.send(session["id"], "What should I see in Kumasi?", language="en")
    question_id = first["userMessageId"]

    # Edited, the message gets a new version, answered like a new message (here streamed).
    provider.answer("Fufu with light soup.", delay_ms=5)
    edit = client.chat.messages.edit_stream(session["id"], question_id, content="What should I eat in Kumasi?")
    with edit as stream:
        events = list(stream)
    meta, done = events[0], events[-1]
    assert isinstance(meta, MetaEvent) and isinstance(done, DoneEvent)
    assert "".join(tokens_of(events)) == "Fufu with light soup."
    assert (done.message["content"], done.message["status"]) == ("Fufu with light soup.", "complete")
    edited_id = meta.user_message_id
    assert edited_id != question_id

    shown = client.chat.messages.list(session["id"])["messages"]
    assert [(m["role"], m["content"]) for m in shown] == [
        ("user", "What should I eat in Kumasi?"),
        ("assistant", "Fufu with light soup."),
    ]
    assert shown[0]["id"] == edited_id
    assert shown[0].get("version") == {"index": 1, "count": 2, "siblingIds": [question_id, edited_id]}

    # Regenerated, the answer gets a second version, to the same (edited) question.
    provider.answer("Banku and tilapia.")
    regenerated = client.chat.messages.regenerate(session["id"], done.message["id"])
    assert (regenerated["content"], regenerated["userMessageId"]) == ("Banku and tilapia.", edited_id)
    assert regenerated.get("version") == {"index": 1, "count": 2, "siblingIds": [done.message["id"], regenerated["id"]]}
    latest = client.chat.messages.list(session["id"])["messages"]
    assert [m["content"] for m in latest] == ["What should I eat in Kumasi?", "Banku and tilapia."]

    # The first version of the question shows the conversation as it was, and stays shown.
    selected = client.chat.messages.select_version(session["id"], question_id)
    assert selected["id"] == session["id"]
    assert [(m["id"], m["content"]) for m in selected["messages"]] == [
        (question_id, "What should I see in Kumasi?"),
        (first["id"], "Kejetia market and the Manhyia Palace."),
    ]
    version = selected["messages"][0].get("version")
    assert version is not None and (version["index"], version["count"]) == (0, 2)
    assert [m["id"] for m in client.chat.messages.list(session["id"])["messages"]] == [question_id, first["id"]]

    # An answer is regenerated, not edited; a question edited, not regenerated.
    with pytest.raises(kasa.BadRequestError) as edit_answer:
        client.chat.messages.edit(session["id"], first["id"], content="Changed")
    assert (edit_answer.value.status, edit_answer.value.code) == (400, "validation_failed")
    with pytest.raises(kasa.BadRequestError):
        client.chat.messages.regenerate_stream(session["id"], question_id)


def test_streams_meta_then_every_token_in_order_then_the_stored_reply(client: Kasa, provider: FakeProvider) -> None:
    text = "Akwaaba one two three four five six seven eight nine ten"
    provider.answer(text, delay_ms=5)
    session = client.chat.sessions.create(persona_id="kasa", title="Stream")

    with client.chat.messages.stream(session["id"], "Count to ten") as stream:
        events = list(stream)

    assert isinstance(events[0], MetaEvent)
    assert (events[0].provider, events[0].continued) == ("fake", False)
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert (done.message["content"], done.message["status"]) == (text, "complete")
    assert done.message["id"] == events[0].assistant_message_id
    tokens = tokens_of(events)
    assert len(tokens) > 5
    assert "".join(tokens) == text
    assert stream.request_id


def test_stop_ends_the_reply_on_the_server_and_keeps_what_was_written(client: Kasa, provider: FakeProvider) -> None:
    provider.endless(interval_ms=20)
    session = client.chat.sessions.create(persona_id="kasa", title="Stop")
    tokens: list[str] = []
    done: DoneEvent | None = None
    with client.chat.messages.stream(session["id"], "Go on for ever") as stream:
        for event in stream:
            if isinstance(event, TokenEvent):
                tokens.append(event.text)
                if len(tokens) == 3:
                    stopped = stream.stop()
                    assert stopped["id"] == stream.assistant_message_id
            if isinstance(event, DoneEvent):
                done = event
    assert done is not None, "the stream ended without its done event"
    assert done.message["status"] == "stopped"
    assert done.message["content"].startswith("w1 w2 w3")
    assert tokens[:3] == ["w1 ", "w2 ", "w3 "]
    eventually(lambda: provider.last_request().get("closedAt"), what="the provider call to be cancelled")
    stored = client.chat.messages.list(session["id"])["messages"][-1]
    assert (stored["id"], stored["status"]) == (done.message["id"], "stopped")


def test_hanging_up_stops_a_reply_that_is_not_resumable(client: Kasa, provider: FakeProvider) -> None:
    provider.endless(interval_ms=20)
    session = client.chat.sessions.create(persona_id="kasa", title="Hang up")
    with client.chat.messages.stream(session["id"], "Go on") as stream:
        for event in stream:
            if isinstance(event, TokenEvent):
                break
    eventually(lambda: provider.last_request().get("closedAt"), what="the provider call to be cancelled")

    def stored_as_stopped() -> bool:
        messages = client.chat.messages.list(session["id"])["messages"]
        return messages[-1]["role"] == "assistant" and messages[-1]["status"] == "stopped"

    eventually(stored_as_stopped, what="the reply to be stored as stopped")


def test_a_resumable_reply_goes_on_after_hanging_up_and_is_followed_again(client: Kasa, provider: FakeProvider) -> None:
    provider.endless(interval_ms=20)
    session = client.chat.sessions.create(persona_id="kasa", title="Resume")
    with client.chat.messages.stream(session["id"], "Tell me everything", resumable=True) as first:
        for event in first:
            if isinstance(event, TokenEvent) and event.text == "w2 ":
                break
    message_id = first.assistant_message_id
    assert message_id is not None

    with client.chat.messages.resume(session["id"], message_id) as followed:
        events: list[ReplyEvent] = []
        for event in followed:
            events.append(event)
            if isinstance(event, TokenEvent) and len(tokens_of(events)) == 2:
                # Nobody hung up on the provider: the reply was being written all along.
                assert provider.last_request().get("closedAt") is None
                followed.stop()
    assert isinstance(events[0], MetaEvent) and events[0].assistant_message_id == message_id
    # The text so far arrives first, from the first word on; then the reply went on being written (a reply that
    # was not resumable would have been stopped by the hang-up, and end right after the text so far).
    tokens = tokens_of(events)
    assert tokens[0].startswith("w1 w2 ")
    assert len(tokens) >= 2
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.message["status"] == "stopped"
    assert done.message["content"] == "".join(tokens_of(events))
    eventually(lambda: provider.last_request().get("closedAt"), what="the provider call to be cancelled")


def test_the_async_client_streams_to_the_end_and_stops(base_url: str, provider: FakeProvider) -> None:
    provider.answer("Maakye, me nua", delay_ms=5)

    async def run() -> tuple[list[ReplyEvent], list[ReplyEvent]]:
        async with AsyncKasa(base_url=base_url) as client:
            from platform_support import new_person

            await client.auth.register(**new_person())
            session = await client.chat.sessions.create(persona_id="nana", title="Async")
            async with await client.chat.messages.stream(session["id"], "Good morning") as stream:
                whole = [event async for event in stream]
            provider.endless(interval_ms=20)
            stopped: list[ReplyEvent] = []
            async with await client.chat.messages.stream(session["id"], "Go on") as stream:
                async for event in stream:
                    stopped.append(event)
                    if isinstance(event, TokenEvent) and len(tokens_of(stopped)) == 1:
                        await stream.stop()
            return whole, stopped

    whole, stopped = asyncio.run(run())
    assert "".join(tokens_of(whole)) == "Maakye, me nua"
    assert isinstance(whole[-1], DoneEvent) and whole[-1].message["status"] == "complete"
    assert isinstance(stopped[-1], DoneEvent) and stopped[-1].message["status"] == "stopped"


def test_resuming_a_finished_reply_gives_it_at_once_and_an_unknown_one_is_a_404(client: Kasa) -> None:
    session = client.chat.sessions.create(persona_id="ticha", title="Done already")
    reply = client.chat.messages.send(session["id"], "What is 2 + 2?")

    with client.chat.messages.resume(session["id"], reply["id"]) as followed:
        events = list(followed)
    assert [event.type for event in events] == ["meta", "token", "done"]
    assert isinstance(events[0], MetaEvent) and events[0].user_message_id == reply["userMessageId"]
    assert tokens_of(events) == [DEFAULT_TEXT]
    done = events[2]
    assert isinstance(done, DoneEvent)
    assert (done.message["id"], done.message["status"], done.message["content"]) == (reply["id"], "complete", DEFAULT_TEXT)
    assert client.chat.messages.resume(session["id"], reply["id"]).final_message()["id"] == reply["id"]

    with pytest.raises(kasa.NotFoundError) as unknown:
        client.chat.messages.resume(session["id"], UNKNOWN_SESSION)
    assert (unknown.value.status, unknown.value.code) == (404, "not_found")
    with pytest.raises(kasa.BadRequestError) as malformed:
        client.chat.messages.resume(session["id"], "not-an-id")
    assert malformed.value.code == "validation_failed"


def test_the_async_client_follows_a_resumable_reply_again(base_url: str, provider: FakeProvider) -> None:
    words = " ".join(f"word{i}" for i in range(1, 31))
    provider.answer(words, delay_ms=50)

    async def run() -> list[ReplyEvent]:
        async with AsyncKasa(base_url=base_url) as client:
            from platform_support import new_person

            await client.auth.register(**new_person())
            session = await client.chat.sessions.create(persona_id="kasa", title="Async resume")
            first = await client.chat.messages.stream(session["id"], "Tell me a story", resumable=True)
            seen: list[ReplyEvent] = []
            async with first:
                async for event in first:
                    seen.append(event)
                    if len(tokens_of(seen)) == 3:
                        break
            assert "".join(tokens_of(seen)) == "word1 word2 word3"
            message_id = first.assistant_message_id
            assert message_id is not None
            async with await client.chat.messages.resume(session["id"], message_id) as followed:
                return [event async for event in followed]

    events = asyncio.run(run())
    tokens = tokens_of(events)
    # The text so far first (it was still being written), then the rest; nothing lost or repeated.
    assert tokens[0].startswith("word1 word2 word3") and len(tokens) > 1
    assert "".join(tokens) == words
    done = events[-1]
    assert isinstance(done, DoneEvent) and (done.message["status"], done.message["content"]) == ("complete", words)
