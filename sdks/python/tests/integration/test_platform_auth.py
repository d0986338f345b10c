"""Accounts through the SDK against the platform: sign up, sign in, who am I, sign out, and how failures read."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import kasa
from platform_support import new_person
from kasa import Kasa


def test_registers_signs_in_reads_me_and_signs_out(base_url: str) -> None:
    person = new_person()
    with Kasa(base_url=base_url) as first, Kasa(base_url=base_url) as other:
        registered = first.auth.register(**person)
        assert registered["success"] is True
        assert registered["user"]["username"] == person["username"]
        assert registered["user"]["subscriptionTier"] == "free"
        assert first.token == registered["token"]

        login = other.auth.login(email=person["email"], password=person["password"])
        assert other.token == login["token"]
        me = other.auth.me()
        assert (me["email"], me["username"]) == (person["email"], person["username"])
        assert me["operator"] is False

        other.auth.logout()
        assert other.token is None
        # The revoked token works nowhere any more.
        with Kasa(base_url=base_url, token=login["token"]) as revoked:
            with pytest.raises(kasa.AuthenticationError) as raised:
                revoked.auth.me()
        assert (raised.value.status, raised.value.code) == (401, "unauthenticated")


def test_a_wrong_password_is_a_401_with_the_apis_message_and_request_id(base_url: str) -> None:
    person = new_person()
    with Kasa(base_url=base_url) as client:
        client.auth.register(**person)
        with pytest.raises(kasa.AuthenticationError) as raised:
            client.auth.login(email=person["email"], password="not-the-password")
    error = raised.value
    assert (error.status, error.code, error.message) == (401, "unauthenticated", "Invalid email or password")
    assert isinstance(error.request_id, str) and error.request_id


def test_invalid_registration_is_a_400_naming_each_wrong_field(base_url: str) -> None:
    with Kasa(base_url=base_url) as client:
        with pytest.raises(kasa.BadRequestError) as raised:
            client.auth.register(username="x", email="not-an-email", password="123")
    assert (raised.value.status, raised.value.code) == (400, "validation_failed")
    fields = {issue["path"] for issue in raised.value.details}
    assert {"username", "email", "password"} <= fields
    assert client.token is None


def test_registering_a_taken_address_again_is_a_409(base_url: str) -> None:
    person = new_person()
    with Kasa(base_url=base_url) as client:
        client.auth.register(**person)
        with pytest.raises(kasa.ConflictError) as raised:
            client.auth.register(**{**person, "username": person["username"] + "_2"})
    assert raised.value.status == 409


def test_a_call_without_a_credential_is_a_401(base_url: str) -> None:
    with Kasa(base_url=base_url) as anonymous:
        with pytest.raises(kasa.AuthenticationError) as raised:
            anonymous.chat.sessions.list()
    assert (raised.value.status, raised.value.code) == (401, "unauthenticated")
    assert raised.value.request_id


def test_a_made_up_api_key_is_a_401(base_url: str) -> None:
    with Kasa(base_url=base_url, api_key="ksk_" + "A" * 43) as forged:
        with pytest.raises(kasa.AuthenticationError) as raised:
            forged.personas.list()
    assert raised.value.status == 401


def test_an_api_key_is_refused_on_account_routes(signed_in: Callable[[], Kasa], base_url: str) -> None:
    owner = signed_in()
    created = owner.api_keys.create(name="Account routes")
    with Kasa(base_url=base_url, api_key=created["secret"]) as keyed:
        with pytest.raises(kasa.AuthenticationError):
            keyed.auth.me()
