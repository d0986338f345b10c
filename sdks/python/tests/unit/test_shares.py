"""Shared conversations as sent: the owner's calls on a session's link, and the public read without a credential."""

from __future__ import annotations

import asyncio
from typing import Any

from kasa import AsyncKasa, Kasa, RetryPolicy
from local_server import LocalServer, Recorded, Reply

TOKEN = "Tt_-0123456789abcdefgh"
SHARE = {
    "token": TOKEN,
    "path": f"/share/{TOKEN}",
    "sessionId": "0123456789abcdef01234567",
    "messageCount": 2,
    "sharedAt": "2026-11-24T09:30:00.000Z",
}
SHARED = {
    "title": "Algebra",
    "persona": {"id": "ticha", "name": "Ticha"},
    "sharedAt": "2026-11-24T09:30:00.000Z",
    "messages": [
        {"id": "m1", "role": "user", "content": "What is 2 + 2?", "timestamp": "2026-11-24T09:29:00.000Z"},
        {"id": "m2", "role": "assistant", "content": "4", "timestamp": "2026-11-24T09:29:01.000Z"},
    ],
    "truncated": False,
}


def answer(request: Recorded) -> Reply:
    if request.path.startswith("/api/chat/shared/"):
        return Reply(body=SHARED)
    if request.method == "DELETE":
        return Reply(204)
    return Reply(201 if request.method == "POST" else 200, body=SHARE)


def test_the_owner_shares_reads_the_link_and_stops_sharing_with_the_credential(server: LocalServer) -> None:
    server.handler = answer
    sessions = Kasa(base_url=server.base_url, token="owner-token").chat.sessions
    assert sessions.share("../s 1") == SHARE
    assert sessions.get_share("s1")["token"] == TOKEN
    assert sessions.stop_sharing("s1") is None
    assert [(r.method, r.path) for r in server.requests] == [
        ("POST", "/api/chat/sessions/..%2Fs%201/share"),
        ("GET", "/api/chat/sessions/s1/share"),
        ("DELETE", "/api/chat/sessions/s1/share"),
    ]
    assert {r.headers["authorization"] for r in server.requests} == {"Bearer owner-token"}
    # Sharing creates nothing new when repeated: it needs no Idempotency-Key to be retried.
    assert "idempotency-key" not in server.requests[0].headers


def test_reads_a_shared_conversation_without_sending_the_credential(server: LocalServer) -> None:
    server.handler = answer
    shared = Kasa(base_url=server.base_url, api_key="ksk_secret").chat.sessions.read_shared(TOKEN)
    assert (shared["title"], shared["persona"]["id"], shared["truncated"]) == ("Algebra", "ticha", False)
    assert [m["content"] for m in shared["messages"]] == ["What is 2 + 2?", "4"]
    request = server.requests[0]
    assert (request.method, request.path) == ("GET", f"/api/chat/shared/{TOKEN}")
    assert "authorization" not in request.headers
    Kasa(base_url=server.base_url).chat.sessions.read_shared("a/b?c")
    assert server.requests[1].path == "/api/chat/shared/a%2Fb%3Fc"


def test_sharing_is_retried_after_a_503_because_sharing_again_changes_nothing(server: LocalServer) -> None:
    unavailable = Reply(503, body={"message": "Chat is unavailable", "code": "upstream_unavailable"})
    server.replies = [unavailable, Reply(200, body=SHARE)]
    policy = RetryPolicy(max_retries=2, base_delay=0.01, max_backoff=0.02)
    assert Kasa(base_url=server.base_url, token="t", retry_policy=policy).chat.sessions.share("s1") == SHARE
    assert [r.method for r in server.requests] == ["POST", "POST"]


def test_the_async_client_shares_reads_and_stops(server: LocalServer) -> None:
    server.handler = answer

    async def run() -> tuple[Any, Any, Any]:
        async with AsyncKasa(base_url=server.base_url, token="owner-token") as client:
            link = await client.chat.sessions.share("s1")
            same = await client.chat.sessions.get_share("s1")
            shared = await client.chat.sessions.read_shared(link["token"])
            await client.chat.sessions.stop_sharing("s1")
            return link, same, shared

    link, same, shared = asyncio.run(run())
    assert link == same == SHARE
    assert shared == SHARED
    assert [(r.method, r.path) for r in server.requests] == [
        ("POST", "/api/chat/sessions/s1/share"),
        ("GET", "/api/chat/sessions/s1/share"),
        ("GET", f"/api/chat/shared/{TOKEN}"),
        ("DELETE", "/api/chat/sessions/s1/share"),
    ]
    assert "authorization" not in server.requests[2].headers
