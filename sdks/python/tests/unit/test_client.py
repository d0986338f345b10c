"""What the clients send: the credential, the address, the query, and speech fetched as bytes."""

from __future__ import annotations

import asyncio

import pytest

import kasa
from kasa import AsyncKasa, Kasa
from local_server import LocalServer, Recorded, Reply

AUTH = {
    "success": True,
    "token": "new-token",
    "user": {"id": "u", "username": "ama", "email": "ama@example.com", "subscriptionTier": "free", "createdAt": "x"},
    "message": "Welcome",
}


def test_sends_the_api_key_as_a_bearer_credential_and_names_itself(server: LocalServer) -> None:
    server.replies = [Reply(body=[])]
    Kasa(base_url=server.base_url, api_key="ksk_test").personas.list()
    headers = server.requests[0].headers
    assert headers["authorization"] == "Bearer ksk_test"
    assert headers["user-agent"] == f"kasa-python/{kasa.__version__}"
    assert kasa.__version__ == "1.7.0"


def test_a_token_wins_over_the_key_and_logout_falls_back_to_the_key(server: LocalServer) -> None:
    server.replies = [Reply(body=AUTH)]
    client = Kasa(base_url=server.base_url, api_key="ksk_test")
    client.auth.login(email="ama@example.com", password="adinkra-sika")
    assert client.token == "new-token"
    server.replies = [Reply(body={"success": True, "message": "Signed out"})]
    client.auth.logout()
    assert client.token is None
    server.replies = [Reply(body=[])]
    client.personas.list()
    assert [r.headers.get("authorization") for r in server.requests] == [
        "Bearer ksk_test",
        "Bearer new-token",
        "Bearer ksk_test",
    ]


def test_reads_the_key_and_the_address_from_the_environment(
    server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KASA_API_KEY", "ksk_from_env")
    monkeypatch.setenv("KASA_BASE_URL", server.base_url)
    server.replies = [Reply(body=[])]
    assert Kasa().personas.list() == []
    assert server.requests[0].headers["authorization"] == "Bearer ksk_from_env"


def test_defaults_to_the_local_platform() -> None:
    assert Kasa().base_url == "http://localhost:8080"
    assert kasa.DEFAULT_BASE_URL == "http://localhost:8080"


def test_sends_no_credential_when_it_has_none(server: LocalServer) -> None:
    server.replies = [Reply(body={"count": 0, "languages": []})]
    Kasa(base_url=server.base_url + "/").languages.list(capability="speak")
    request = server.requests[0]
    assert "authorization" not in request.headers
    assert request.path == "/api/languages?capability=speak"


def test_builds_paths_and_queries_with_ids_escaped(server: LocalServer) -> None:
    session: dict[str, object] = {"id": "s", "personaId": "kasa", "title": "t", "createdAt": "x"}
    session.update(messages=[], nextCursor=None)
    server.replies = [Reply(body=session)]
    client = Kasa(base_url=server.base_url, token="t")
    page = client.chat.messages.list("../keys", limit=5, cursor="abc")
    assert page == {"messages": [], "nextCursor": None}
    assert server.requests[0].path == "/api/chat/sessions/..%2Fkeys?limit=5&cursor=abc"


def test_synthesize_gives_the_audio_bytes(server: LocalServer) -> None:
    audio = bytes(range(256)) * 8
    headers = {"Content-Type": "audio/mpeg", "X-Kasa-Audio-Url": "/api/voice/audio/x"}
    server.replies = [Reply(headers=headers, body=audio)]
    spoken = Kasa(base_url=server.base_url, api_key="ksk_voice").voice.synthesize("Akwaaba", language="tw")
    assert spoken == audio
    assert (spoken.content_type, spoken.audio_url) == ("audio/mpeg", "/api/voice/audio/x")
    request = server.requests[0]
    assert request.headers["accept"].startswith("audio/mpeg")
    assert request.json() == {"text": "Akwaaba", "language": "tw"}


def test_synthesize_fetches_the_stored_audio_without_the_credential_when_answered_with_json(
    server: LocalServer,
) -> None:
    audio = b"RIFF....WAVEfmt "

    def answer(request: Recorded) -> Reply:
        if request.path == "/api/voice/synthesize":
            return Reply(201, body={"audioUrl": "/api/voice/audio/abc", "duration": 1.2})
        return Reply(headers={"Content-Type": "audio/wav"}, body=audio)

    server.handler = answer
    spoken = Kasa(base_url=server.base_url, api_key="ksk_voice").voice.synthesize("Hi")
    assert (spoken, spoken.content_type, spoken.audio_url) == (audio, "audio/wav", "/api/voice/audio/abc")
    fetched = server.requests[1]
    assert (fetched.method, fetched.path) == ("GET", "/api/voice/audio/abc")
    assert "authorization" not in fetched.headers


def test_with_options_shares_the_credential_and_adds_headers(server: LocalServer) -> None:
    server.replies = [Reply(body=[])]
    client = Kasa(base_url=server.base_url)
    tagged = client.with_options(headers={"X-Trace": "t1"})
    client.set_token("later-token")
    tagged.personas.list()
    assert server.requests[0].headers["authorization"] == "Bearer later-token"
    assert server.requests[0].headers["x-trace"] == "t1"


def test_the_async_client_signs_in_and_sends_the_token(server: LocalServer) -> None:
    def answer(request: Recorded) -> Reply:
        return Reply(body=AUTH) if request.path == "/api/auth/register" else Reply(body={"user": AUTH["user"]})

    server.handler = answer

    async def run() -> object:
        async with AsyncKasa(base_url=server.base_url) as client:
            await client.auth.register(username="ama", email="ama@example.com", password="adinkra-sika")
            return await client.auth.me()

    assert asyncio.run(run()) == AUTH["user"]
    assert server.requests[1].headers["authorization"] == "Bearer new-token"
    assert "idempotency-key" in server.requests[0].headers


TEAM_KEY = {
    "secret": "ksk_team",
    "key": {
        "id": "k1",
        "name": "CI",
        "maskedKey": "ksk_team…abcd",
        "scopes": ["chat"],
        "createdAt": "2026-11-24T10:00:00.000Z",
        "expiresAt": None,
        "lastUsedAt": None,
        "revokedAt": None,
        "teamId": "t1",
    },
    "message": "Store it now",
}


def test_creates_a_team_key_only_when_asked(server: LocalServer) -> None:
    server.replies = [Reply(201, body=TEAM_KEY), Reply(201, body=TEAM_KEY)]
    client = Kasa(base_url=server.base_url, token="t")
    created = client.api_keys.create(name="CI", scopes=["chat"], team=True)
    assert created["key"]["teamId"] == "t1"
    client.api_keys.create(name="Mine")
    assert [r.json() for r in server.requests] == [{"name": "CI", "scopes": ["chat"], "team": True}, {"name": "Mine"}]


def test_the_async_client_creates_a_team_key(server: LocalServer) -> None:
    server.replies = [Reply(201, body=TEAM_KEY)]

    async def run() -> object:
        async with AsyncKasa(base_url=server.base_url, token="t") as client:
            return await client.api_keys.create(name="CI", team=True)

    assert asyncio.run(run()) == TEAM_KEY
    assert server.requests[0].json() == {"name": "CI", "team": True}
