"""Versions of messages as sent: editing a message and regenerating an answer (whole and streamed, with an
Idempotency-Key like sending), showing another version, and the API's refusals as their error classes, with the
blocking and the asyncio client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping

import pytest

import kasa
from kasa import AsyncKasa, DoneEvent, Kasa, MetaEvent, TokenEvent
from local_server import LocalServer, Recorded, Reply

SESSION = "0123456789abcdef01234567"
QUESTION = "0123456789abcdef0000000a"
ANSWER = "0123456789abcdef0000000b"
#: An answer: editing it is refused.
REFUSED = "0123456789abcdef000000ff"
SSE = {"Content-Type": "text/event-stream; charset=utf-8", "x-request-id": "req-versions"}
EDITED = {
    "id": "0123456789abcdef0000000d",
    "role": "assistant",
    "content": "Kejetia is the largest market in West Africa.",
    "timestamp": "2026-11-24T09:30:01.000Z",
    "type": "text",
    "status": "complete",
    "version": {"index": 0, "count": 1, "siblingIds": ["0123456789abcdef0000000d"]},
    "userMessageId": "0123456789abcdef0000000c",
}
REGENERATED = {
    **EDITED,
    "id": "0123456789abcdef0000000e",
    "content": "Kejetia market, in Kumasi.",
    "version": {"index": 1, "count": 2, "siblingIds": [ANSWER, "0123456789abcdef0000000e"]},
    "userMessageId": QUESTION,
}
SELECTED = {
    "id": SESSION,
    "personaId": "nana",
    "title": "Weekend in Kumasi",
    "createdAt": "2026-11-24T09:29:00.000Z",
    "messages": [
        {
            "id": QUESTION,
            "role": "user",
            "content": "What should I see?",
            "timestamp": "2026-11-24T09:29:30.000Z",
            "type": "text",
            "status": "complete",
            "version": {"index": 0, "count": 2, "siblingIds": [QUESTION, "0123456789abcdef0000000c"]},
        }
    ],
    "nextCursor": None,
}
EDIT_REFUSED = {
    "message": "Only your own messages can be edited, and this one is an answer: regenerate it for another version.",
    "code": "validation_failed",
    "requestId": "req-400",
    "details": [{"path": "messageId", "message": "an answer cannot be edited"}],
}
REGENERATE_REFUSED = {
    "message": "Only an answer can be regenerated, and this one is your message: edit it for another version.",
    "code": "validation_failed",
    "requestId": "req-400",
    "details": [{"path": "messageId", "message": "a message of yours cannot be regenerated"}],
}


def client(server: LocalServer, **options: object) -> Kasa:
    return Kasa(base_url=server.base_url, token="tok", max_retries=0, **options)  # type: ignore[arg-type]


def event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


def streamed(done: Mapping[str, object]) -> list[bytes | str | float]:
    meta = {
        "userMessageId": done["userMessageId"],
        "assistantMessageId": done["id"],
        "provider": "fake",
        "model": "m",
        "continued": False,
    }
    tokens = [event("token", {"text": "Kejetia "}), event("token", {"text": "market."})]
    return [event("meta", meta), *tokens, event("done", done)]


def test_edit_sends_the_new_text_to_the_edit_route_and_gives_the_reply(server: LocalServer) -> None:
    server.replies = [Reply(201, body=EDITED)]
    reply = client(server).chat.messages.edit(SESSION, QUESTION, content="What should I eat?", language="en")
    assert reply == EDITED
    version = reply.get("version")
    assert version is not None and version["count"] == 1
    sent = server.requests[0]
    assert (sent.method, sent.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/{QUESTION}/edit")
    assert sent.headers["accept"] == "application/json"
    assert sent.headers["authorization"] == "Bearer tok"
    assert sent.json() == {"role": "user", "content": "What should I eat?", "language": "en"}
    # It creates a message and a reply: sent with an Idempotency-Key, like sending.
    assert sent.headers["idempotency-key"]


def test_edit_sends_attachment_ids_only_when_given_and_escapes_the_ids(server: LocalServer) -> None:
    server.replies = [Reply(201, body=EDITED)]
    messages = client(server).chat.messages
    messages.edit(SESSION, "../m 1", content="This one", type="voice", attachment_ids=["A" * 22])
    messages.edit(SESSION, QUESTION, content="No file", attachment_ids=[])
    messages.edit(SESSION, QUESTION, content="The same files")
    assert server.requests[0].path == f"/api/chat/sessions/{SESSION}/messages/..%2Fm%201/edit"
    assert server.requests[0].json()["type"] == "voice"
    assert [r.json().get("attachmentIds") for r in server.requests] == [["A" * 22], [], None]
    with pytest.raises(TypeError):
        messages.edit(SESSION, QUESTION, content="Oops", attachment_ids="A" * 22)


def test_edit_stream_streams_the_reply_like_stream(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=streamed(EDITED))]
    stream = client(server).chat.messages.edit_stream(SESSION, QUESTION, content="What should I eat?", resumable=True)
    assert isinstance(stream, kasa.ReplyStream)
    with stream:
        events = list(stream)
    assert events == [
        MetaEvent(EDITED["userMessageId"], EDITED["id"], "fake", "m", False),  # type: ignore[arg-type]
        TokenEvent("Kejetia "),
        TokenEvent("market."),
        DoneEvent(EDITED),  # type: ignore[arg-type]
    ]
    sent = server.requests[0]
    assert (sent.method, sent.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/{QUESTION}/edit")
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.json() == {"role": "user", "content": "What should I eat?", "resumable": True}
    assert sent.headers["idempotency-key"]
    assert (stream.assistant_message_id, stream.request_id) == (EDITED["id"], "req-versions")


def test_editing_an_answer_is_a_bad_request_error(server: LocalServer) -> None:
    server.replies = [Reply(400, body=EDIT_REFUSED)]
    messages = client(server).chat.messages
    with pytest.raises(kasa.BadRequestError) as raised:
        messages.edit(SESSION, ANSWER, content="Changed")
    error = raised.value
    assert (error.status, error.code, error.message, error.request_id) == (
        400,
        "validation_failed",
        EDIT_REFUSED["message"],
        "req-400",
    )
    assert error.details == EDIT_REFUSED["details"]
    # Streamed, the refusal is raised by the call, before anything is read.
    with pytest.raises(kasa.BadRequestError, match="cannot be edited|regenerate it"):
        messages.edit_stream(SESSION, ANSWER, content="Changed")


def test_regenerate_asks_for_a_new_answer_and_gives_it_with_its_version(server: LocalServer) -> None:
    server.replies = [Reply(201, body=REGENERATED)]
    messages = client(server).chat.messages
    reply = messages.regenerate(SESSION, ANSWER)
    assert reply == REGENERATED
    version = reply.get("version")
    assert version is not None and (version["index"], version["count"]) == (1, 2)
    messages.regenerate(SESSION, ANSWER, language="tw", idempotency_key="again-1")
    first, second = server.requests
    assert (first.method, first.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/{ANSWER}/regenerate")
    assert first.headers["accept"] == "application/json"
    assert first.json() == {}
    assert first.headers["idempotency-key"]
    assert second.json() == {"language": "tw"}
    assert second.headers["idempotency-key"] == "again-1"


def test_regenerate_stream_streams_the_new_answer_like_stream(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=streamed(REGENERATED))]
    with client(server).chat.messages.regenerate_stream(SESSION, ANSWER, language="en") as stream:
        events = list(stream)
    assert [type(item).__name__ for item in events] == ["MetaEvent", "TokenEvent", "TokenEvent", "DoneEvent"]
    assert events[-1] == DoneEvent(REGENERATED)  # type: ignore[arg-type]
    sent = server.requests[0]
    assert (sent.method, sent.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/{ANSWER}/regenerate")
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.json() == {"language": "en"}
    assert sent.headers["idempotency-key"]


def test_regenerating_a_message_of_mine_is_a_bad_request_error(server: LocalServer) -> None:
    server.replies = [Reply(400, body=REGENERATE_REFUSED)]
    messages = client(server).chat.messages
    with pytest.raises(kasa.BadRequestError) as raised:
        messages.regenerate(SESSION, QUESTION)
    assert (raised.value.code, raised.value.message) == ("validation_failed", REGENERATE_REFUSED["message"])
    with pytest.raises(kasa.BadRequestError):
        messages.regenerate_stream(SESSION, QUESTION)


def test_a_stopped_regenerated_answer_is_stopped_through_the_stop_route(server: LocalServer) -> None:
    stopped = {**REGENERATED, "status": "stopped", "content": "Kejetia "}

    def answer(request: Recorded) -> Reply:
        if request.path.endswith("/stop"):
            return Reply(202, body=stopped)
        return Reply(headers=SSE, chunks=streamed(stopped))

    server.handler = answer
    with client(server).chat.messages.regenerate_stream(SESSION, ANSWER, resumable=True) as stream:
        assert stream.stop() == stopped
        list(stream)
    assert server.requests[0].json() == {"resumable": True}
    stop = server.requests[1]
    assert (stop.method, stop.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/{REGENERATED['id']}/stop")


def test_edit_is_retried_with_the_same_idempotency_key(server: LocalServer) -> None:
    busy = Reply(503, headers={"Retry-After": "0"}, body={"message": "busy", "code": "upstream_unavailable"})
    server.replies = [busy, Reply(201, body=EDITED)]
    kasa_client = Kasa(base_url=server.base_url, token="tok")
    assert kasa_client.chat.messages.edit(SESSION, QUESTION, content="Again") == EDITED
    first, second = server.requests
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"]
    assert first.body == second.body


def test_select_version_shows_a_version_and_gives_the_session(server: LocalServer) -> None:
    server.replies = [Reply(body=SELECTED)]
    messages = client(server).chat.messages
    session = messages.select_version(SESSION, QUESTION, limit=5)
    assert session == SELECTED
    version = session["messages"][0].get("version")
    assert version is not None and version["index"] == 0
    messages.select_version(SESSION, QUESTION)
    first, second = server.requests
    assert (first.method, first.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/{QUESTION}/select?limit=5")
    assert second.path == f"/api/chat/sessions/{SESSION}/messages/{QUESTION}/select"
    assert first.body == b""
    # Showing a version creates nothing: no key needed to be retried.
    assert "idempotency-key" not in first.headers


def test_select_version_is_retried_as_safe_to_repeat(server: LocalServer) -> None:
    busy = Reply(503, headers={"Retry-After": "0"}, body={"message": "busy", "code": "upstream_unavailable"})
    server.replies = [busy, Reply(body=SELECTED)]
    kasa_client = Kasa(base_url=server.base_url, token="tok", idempotency_keys=False)
    assert kasa_client.chat.messages.select_version(SESSION, QUESTION) == SELECTED
    assert len(server.requests) == 2


def test_select_version_of_an_unknown_message_is_a_not_found_error(server: LocalServer) -> None:
    server.replies = [Reply(404, body={"message": "Message not found", "code": "not_found", "requestId": "r404"})]
    with pytest.raises(kasa.NotFoundError) as raised:
        client(server).chat.messages.select_version(SESSION, QUESTION)
    assert raised.value.request_id == "r404"


def test_the_async_client_edits_regenerates_and_selects(server: LocalServer) -> None:
    def answer(request: Recorded) -> Reply:
        streaming = request.headers["accept"] == "text/event-stream"
        if REFUSED in request.path:
            return Reply(400, body=EDIT_REFUSED)
        if request.path.endswith("/edit"):
            return Reply(headers=SSE, chunks=streamed(EDITED)) if streaming else Reply(201, body=EDITED)
        if request.path.endswith("/regenerate"):
            return Reply(headers=SSE, chunks=streamed(REGENERATED)) if streaming else Reply(201, body=REGENERATED)
        return Reply(body=SELECTED)

    server.handler = answer

    async def run() -> list[object]:
        async with AsyncKasa(base_url=server.base_url, token="tok", max_retries=0) as async_client:
            messages = async_client.chat.messages
            edited = await messages.edit(SESSION, QUESTION, content="What should I eat?")
            async with await messages.edit_stream(SESSION, QUESTION, content="And drink?") as stream:
                assert isinstance(stream, kasa.AsyncReplyStream)
                edit_events = [item async for item in stream]
            regenerated = await messages.regenerate(SESSION, ANSWER, language="fr")
            regenerated_again = await (await messages.regenerate_stream(SESSION, ANSWER)).final_message()
            selected = await messages.select_version(SESSION, QUESTION, limit=2)
            with pytest.raises(kasa.BadRequestError):
                await messages.edit(SESSION, REFUSED, content="Refused")
            return [edited, edit_events[-1], regenerated, regenerated_again, selected]

    edited, edit_done, regenerated, regenerated_again, selected = asyncio.run(run())
    assert edited == EDITED and edit_done == DoneEvent(EDITED)  # type: ignore[arg-type]
    assert regenerated == REGENERATED and regenerated_again == REGENERATED
    assert selected == SELECTED
    assert [f"{r.method} {r.path} {r.headers['accept']}" for r in server.requests[:5]] == [
        f"POST /api/chat/sessions/{SESSION}/messages/{QUESTION}/edit application/json",
        f"POST /api/chat/sessions/{SESSION}/messages/{QUESTION}/edit text/event-stream",
        f"POST /api/chat/sessions/{SESSION}/messages/{ANSWER}/regenerate application/json",
        f"POST /api/chat/sessions/{SESSION}/messages/{ANSWER}/regenerate text/event-stream",
        f"POST /api/chat/sessions/{SESSION}/messages/{QUESTION}/select?limit=2 application/json",
    ]
    assert [r.json() for r in server.requests[:4]] == [
        {"role": "user", "content": "What should I eat?"},
        {"role": "user", "content": "And drink?"},
        {"language": "fr"},
        {},
    ]
    assert all(r.headers.get("idempotency-key") for r in server.requests[:4])
    assert "idempotency-key" not in server.requests[4].headers
