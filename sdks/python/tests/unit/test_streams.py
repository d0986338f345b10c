"""Streamed replies and completions over a real connection: events in order, the errors a stream can end with, and
hanging up when the reader leaves early."""

from __future__ import annotations

import asyncio
import json

import pytest

import kasa
from kasa import AsyncKasa, ChatMessage, DoneEvent, Kasa, MetaEvent, TokenEvent
from local_server import LocalServer, Recorded, Reply, endless_tokens

SSE = {"Content-Type": "text/event-stream; charset=utf-8", "x-request-id": "req-stream"}
META = {"userMessageId": "u1", "assistantMessageId": "a1", "provider": "fake", "model": "m", "continued": False}
DONE = {
    "id": "a1",
    "role": "assistant",
    "content": "Akwaaba, Ama!",
    "timestamp": "2026-11-24T00:00:00.000Z",
    "type": "text",
    "status": "complete",
    "userMessageId": "u1",
}
SESSION = "0123456789abcdef01234567"


def event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


def reply(*extra: str | float) -> list[bytes | str | float]:
    tokens = [event("token", {"text": "Akwaaba, "}), event("token", {"text": "Ama!"})]
    return [event("meta", META), ": ping\n\n", *tokens, *extra]


def client(server: LocalServer) -> Kasa:
    return Kasa(base_url=server.base_url, token="tok", max_retries=0)


def test_gives_meta_then_tokens_in_order_then_the_stored_reply(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(event("done", DONE)))]
    with client(server).chat.messages.stream(SESSION, "Hello", language="tw") as stream:
        events = list(stream)
    assert events == [
        MetaEvent("u1", "a1", "fake", "m", False),
        TokenEvent("Akwaaba, "),
        TokenEvent("Ama!"),
        DoneEvent(DONE),  # type: ignore[arg-type]
    ]
    sent = server.requests[0]
    assert (sent.method, sent.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages")
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.json() == {"role": "user", "content": "Hello", "language": "tw"}
    assert stream.request_id == "req-stream"


def test_final_message_reads_to_the_end(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(event("done", DONE)))]
    assert client(server).chat.messages.stream(SESSION, "Hello").final_message() == DONE


def test_a_stream_can_be_read_once(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(event("done", DONE)))]
    stream = client(server).chat.messages.stream(SESSION, "Hello")
    list(stream)
    with pytest.raises(RuntimeError):
        list(stream)


def test_raises_an_error_event_as_service_unavailable(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(event("error", {"message": "No AI provider could answer."})))]
    seen: list[object] = []
    with pytest.raises(kasa.ServiceUnavailableError) as raised:
        for item in client(server).chat.messages.stream(SESSION, "Hello"):
            seen.append(item)
    assert len(seen) == 3
    assert (raised.value.status, raised.value.message, raised.value.request_id) == (
        503,
        "No AI provider could answer.",
        "req-stream",
    )


def test_raises_a_stream_error_when_the_connection_drops_mid_reply(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(), drop=True)]
    with pytest.raises(kasa.StreamError) as raised:
        list(client(server).chat.messages.stream(SESSION, "Hello"))
    assert (raised.value.status, raised.value.code) == (0, "stream_error")


def test_raises_a_stream_error_when_the_body_ends_without_the_closing_event(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply())]
    with pytest.raises(kasa.StreamError):
        client(server).chat.messages.stream(SESSION, "Hello").final_message()


def test_raises_errors_before_the_stream_starts_as_kasa_errors(server: LocalServer) -> None:
    server.replies = [Reply(404, body={"message": "Session not found", "code": "not_found", "requestId": "r404"})]
    with pytest.raises(kasa.NotFoundError) as raised:
        client(server).chat.messages.stream(SESSION, "Hello")
    assert raised.value.request_id == "r404"


def test_hangs_up_when_the_reader_leaves_the_loop_early(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=endless_tokens(0.01))]
    with client(server).chat.messages.stream(SESSION, "Go on") as stream:
        for item in stream:
            if isinstance(item, TokenEvent):
                break
    assert server.client_gone.wait(5), "the server kept writing to a reader that had left"


def test_hangs_up_when_the_reader_breaks_out_of_a_loop_outside_a_with_block(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=endless_tokens(0.01))]
    kasa_client = client(server)
    stream = kasa_client.chat.messages.stream(SESSION, "Go on")
    for item in stream:
        if isinstance(item, TokenEvent):
            break
    assert server.client_gone.wait(5), "the server kept writing to a reader that had left"


def test_close_hangs_up_while_the_stream_is_read(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=endless_tokens(0.01))]
    stream = client(server).chat.messages.stream(SESSION, "Go on")
    seen = 0
    for item in stream:
        seen += 1
        if isinstance(item, TokenEvent):
            stream.close()
    # The loop ends quietly after close(); the server sees the reader gone.
    assert seen == 2
    assert server.client_gone.wait(5)


def test_stop_reads_ahead_to_the_reply_id_and_asks_the_server_to_stop(server: LocalServer) -> None:
    stopped = {**DONE, "status": "stopped", "content": "Akwaaba, "}

    def answer(request: Recorded) -> Reply:
        if request.path.endswith("/stop"):
            return Reply(202, body=stopped)
        return Reply(headers=SSE, chunks=reply(event("done", stopped)))

    server.handler = answer
    with client(server).chat.messages.stream(SESSION, "Hello", resumable=True) as stream:
        assert stream.stop() == stopped
        events = list(stream)
    assert server.requests[0].json()["resumable"] is True
    stop = server.requests[1]
    assert (stop.method, stop.path) == ("POST", f"/api/chat/sessions/{SESSION}/messages/a1/stop")
    # The events read ahead to learn the id are still handed out, in order.
    assert isinstance(events[0], MetaEvent) and events[-1] == DoneEvent(stopped)  # type: ignore[arg-type]
    assert stream.assistant_message_id == "a1"


def test_resume_follows_a_reply_by_its_id(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(event("done", DONE)))]
    reply_stream = client(server).chat.messages.resume(SESSION, "a1")
    assert reply_stream.final_message() == DONE
    follow = server.requests[0]
    assert (follow.method, follow.path) == ("GET", f"/api/chat/sessions/{SESSION}/messages/a1/stream")


def chunk(content: str | None) -> str:
    delta = {} if content is None else {"content": content}
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": None}
    body = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "kasa", "choices": [choice]}
    return f"data: {json.dumps(body)}\n\n"


def test_streams_completion_chunks_until_done(server: LocalServer) -> None:
    chunks: list[bytes | str | float] = [chunk("Me "), chunk("din "), chunk("Ama"), chunk(None), "data: [DONE]\n\n"]
    server.replies = [Reply(headers=SSE, chunks=chunks)]
    messages: list[ChatMessage] = [{"role": "user", "content": "Hi"}]
    stream = client(server).completions.stream(model="kasa", messages=messages, include_usage=True)
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in stream if c["choices"])
    assert text == "Me din Ama"
    assert server.requests[0].json() == {
        "model": "kasa",
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }


def test_raises_a_completion_error_chunk(server: LocalServer) -> None:
    failure = 'data: {"error": {"message": "No AI provider could answer.", "type": "api_error"}}\n\n'
    server.replies = [Reply(headers=SSE, chunks=[chunk("Me "), failure])]
    with pytest.raises(kasa.ServiceUnavailableError, match="No AI provider"):
        list(client(server).completions.stream(model="kasa", messages=[{"role": "user", "content": "Hi"}]))


def test_a_completion_stream_without_done_is_a_stream_error(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=[chunk("Me ")])]
    with pytest.raises(kasa.StreamError):
        list(client(server).completions.stream(model="kasa", messages=[{"role": "user", "content": "Hi"}]))


def test_the_async_stream_gives_the_same_events_and_stops(server: LocalServer) -> None:
    stopped = {**DONE, "status": "stopped"}

    def answer(request: Recorded) -> Reply:
        if request.path.endswith("/stop"):
            return Reply(202, body=stopped)
        return Reply(headers=SSE, chunks=reply(event("done", stopped)))

    server.handler = answer

    async def run() -> list[object]:
        async with AsyncKasa(base_url=server.base_url, token="tok") as kasa_client:
            async with await kasa_client.chat.messages.stream(SESSION, "Hello") as stream:
                assert await stream.stop() == stopped
                return [item async for item in stream]

    events = asyncio.run(run())
    assert [type(item).__name__ for item in events] == ["MetaEvent", "TokenEvent", "TokenEvent", "DoneEvent"]
    assert server.requests[1].path.endswith("/messages/a1/stop")


def test_the_async_stream_hangs_up_when_left_early(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=endless_tokens(0.01))]

    async def run() -> None:
        async with AsyncKasa(base_url=server.base_url, token="tok") as kasa_client:
            async with await kasa_client.chat.messages.stream(SESSION, "Go on") as stream:
                async for item in stream:
                    if isinstance(item, TokenEvent):
                        break

    asyncio.run(run())
    assert server.client_gone.wait(5), "the server kept writing to a reader that had left"


def test_the_async_stream_raises_a_dropped_connection(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=reply(), drop=True)]

    async def run() -> None:
        async with AsyncKasa(base_url=server.base_url, token="tok") as kasa_client:
            stream = await kasa_client.chat.messages.stream(SESSION, "Hello")
            await stream.final_message()

    with pytest.raises(kasa.StreamError):
        asyncio.run(run())
