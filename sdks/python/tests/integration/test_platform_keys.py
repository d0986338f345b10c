"""API keys through the SDK against the platform: created, used as the client's credential, listed, revoked, and
keys of a team made by its owner."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

import kasa
from platform_support import DEFAULT_TEXT, eventually
from kasa import Kasa


def test_a_created_key_works_as_the_api_key_and_stops_working_once_revoked(
    signed_in: Callable[[], Kasa], base_url: str
) -> None:
    owner = signed_in()
    created = owner.api_keys.create(name="SDK test", scopes=["chat"], expires_in_days=30)
    assert created["secret"].startswith("ksk_")
    assert created["key"]["scopes"] == ["chat"]
    assert created["key"]["expiresAt"] is not None

    with Kasa(base_url=base_url, api_key=created["secret"]) as keyed:
        assert len(keyed.personas.list()) >= 6
        session = keyed.chat.sessions.create(persona_id="massa", title="Via key")
        reply = keyed.chat.messages.stream(session["id"], "Hello").final_message()
        assert reply["content"] == DEFAULT_TEXT
        # The key acts for its owner.
        assert session["id"] in [s["id"] for s in owner.chat.sessions.list()["sessions"]]

        # A chat-only key may not speak.
        with pytest.raises(kasa.PermissionDeniedError) as raised:
            keyed.voice.synthesize("Akwaaba")
        assert (raised.value.status, raised.value.code) == (403, "forbidden")

        listed = {key["id"]: key for key in owner.api_keys.list()}
        mine = listed[created["key"]["id"]]
        assert (mine["name"], mine["revokedAt"]) == ("SDK test", None)
        assert created["secret"] not in mine["maskedKey"]

        owner.api_keys.revoke(created["key"]["id"])
        revoked = {key["id"]: key for key in owner.api_keys.list()}[created["key"]["id"]]
        assert isinstance(revoked["revokedAt"], str)
        owner.api_keys.revoke(created["key"]["id"])  # again: fine

        def refused() -> bool:
            try:
                keyed.with_options(max_retries=0).personas.list()
            except kasa.AuthenticationError:
                return True
            return False

        eventually(refused, what="the revoked key to be refused", timeout=30, interval=0.5)


def test_keys_are_managed_with_a_token_only(signed_in: Callable[[], Kasa], base_url: str) -> None:
    owner = signed_in()
    secret = owner.api_keys.create(name="Not for keys")["secret"]
    with Kasa(base_url=base_url, api_key=secret) as keyed:
        with pytest.raises(kasa.AuthenticationError):
            keyed.api_keys.list()


def test_a_bad_key_name_is_a_400_and_an_unknown_key_a_404(client: Kasa) -> None:
    with pytest.raises(kasa.BadRequestError) as raised:
        client.api_keys.create(name="", expires_in_days=1000)
    assert {"name", "expiresInDays"} <= {issue["path"] for issue in raised.value.details}
    with pytest.raises(kasa.NotFoundError):
        client.api_keys.revoke("0123456789abcdef01234567")


def test_a_team_owner_creates_a_key_of_the_team(
    enterprise: Callable[[], Kasa], signed_in: Callable[[], Kasa], base_url: str
) -> None:
    owner = enterprise()
    # The SDK has no team calls: the team is made with the owner's token directly.
    made = httpx.post(
        f"{base_url}/api/developer/team",
        json={"name": "Tamale Tech"},
        headers={"Authorization": f"Bearer {owner.token}"},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    team_id = made.json()["team"]["id"]

    created = owner.api_keys.create(name="Team key", scopes=["chat"], team=True)
    assert created["key"]["teamId"] == team_id
    assert created["secret"].startswith("ksk_")
    listed = {key["id"]: key for key in owner.api_keys.list()}
    assert listed[created["key"]["id"]]["teamId"] == team_id
    # A personal key of the same person stays personal.
    assert owner.api_keys.create(name="Mine")["key"]["teamId"] is None

    with Kasa(base_url=base_url, api_key=created["secret"]) as keyed:
        assert len(keyed.personas.list()) >= 6

    # Someone in no team may not make a team key.
    with pytest.raises(kasa.PermissionDeniedError) as raised:
        signed_in().api_keys.create(name="Not mine", team=True)
    assert (raised.value.status, raised.value.code) == (403, "forbidden")
