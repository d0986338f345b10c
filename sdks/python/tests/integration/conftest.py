"""The fixtures of the integration tests: the platform, the fake provider, and signed-in clients (on the Free, Pro
and Enterprise plans)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from kasa import Kasa
from platform_support import DEFAULT_TEXT, FakeProvider, new_person, required_env, set_plan


@pytest.fixture(scope="session")
def base_url() -> str:
    return required_env("KASA_BASE_URL")


@pytest.fixture(scope="session")
def provider() -> FakeProvider:
    return FakeProvider(required_env("KASA_FAKE_PROVIDER_URL"))


@pytest.fixture(autouse=True)
def default_answer(provider: FakeProvider) -> None:
    provider.answer(DEFAULT_TEXT)


@pytest.fixture
def signed_in(base_url: str) -> Iterator[Callable[[], Kasa]]:
    """Makes clients signed in as new people (on the Free plan); closes them after the test."""
    clients: list[Kasa] = []

    def make() -> Kasa:
        client = Kasa(base_url=base_url)
        clients.append(client)
        client.auth.register(**new_person())
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(signed_in: Callable[[], Kasa]) -> Kasa:
    return signed_in()


@pytest.fixture
def pro(client: Kasa, base_url: str) -> Kasa:
    """A signed-in person on the Pro plan. The SDK has no billing calls: the checkout is called directly (the test
    platform's payment provider completes it at once), and its answer carries a token with the new plan."""
    response = httpx.post(
        f"{base_url}/api/billing/checkout",
        json={"planId": "pro"},
        headers={"Authorization": f"Bearer {client.token}"},
        timeout=30,
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["user"]["subscriptionTier"] == "pro"
    client.set_token(body["token"])
    return client


@pytest.fixture
def enterprise(base_url: str) -> Iterator[Callable[[], Kasa]]:
    """Makes clients signed in as new people on the Enterprise plan: the plan is set by the suite's plan control,
    then the person signs in again, so that the token carries it."""
    control = required_env("KASA_PLAN_CONTROL_URL")
    clients: list[Kasa] = []

    def make() -> Kasa:
        client = Kasa(base_url=base_url)
        clients.append(client)
        person = new_person()
        client.auth.register(**person)
        set_plan(control, person["email"], "enterprise")
        login = client.auth.login(email=person["email"], password=person["password"])
        assert login["user"]["subscriptionTier"] == "enterprise"
        return client

    yield make
    for client in clients:
        client.close()
