"""Streamed answers of the Kasa API, read with ``for`` (``async for``): a reply of the chat service, event by
event, the chunks of an OpenAI-compatible completion, and the events of a video job. A stream can be read once;
leaving it early (``break``, an exception, ``close()``, the end of a ``with`` block) hangs up."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Literal, Self, TypeVar, Union, cast

import httpx

from ._errors import KasaError, ServiceUnavailableError, StreamError, error_from_transport
from ._sse import ServerSentEvent, aiter_events, iter_events
from ._types import AssistantReply, ChatCompletionChunk, StoredMessage, VideoJobEvent

T = TypeVar("T")


@dataclass(frozen=True)
class MetaEvent:
    """A provider starts answering (again, with ``continued`` true, when another one took over mid-reply)."""

    user_message_id: str
    assistant_message_id: str
    provider: str
    model: str
    continued: bool
    type: Literal["meta"] = "meta"


@dataclass(frozen=True)
class TokenEvent:
    """The next piece of the reply's text."""

    text: str
    type: Literal["token"] = "token"


@dataclass(frozen=True)
class DoneEvent:
    """The reply as stored: ``status`` is ``complete``, or ``stopped`` when it was stopped."""

    message: AssistantReply
    type: Literal["done"] = "done"


ReplyEvent = Union[MetaEvent, TokenEvent, DoneEvent]


class _End:
    """A decoder's answer for the stream's closing event; ``item`` is handed out before the end, when given."""

    def __init__(self, item: Any = None) -> None:
        self.item = item


#: A decoder's answer for an event to pass over (an unknown event name).
_SKIP = object()
#: What reading gives once the stream has ended.
_EXHAUSTED = object()


def decode_reply_event(event: ServerSentEvent, request_id: str | None) -> Any:
    """A reply event from a Server-Sent Event of the chat service; an ``error`` event is raised."""
    if event.event == "meta":
        meta = json.loads(event.data)
        return MetaEvent(
            user_message_id=meta["userMessageId"],
            assistant_message_id=meta["assistantMessageId"],
            provider=meta["provider"],
            model=meta["model"],
            continued=bool(meta["continued"]),
        )
    if event.event == "token":
        return TokenEvent(json.loads(event.data)["text"])
    if event.event == "done":
        return _End(DoneEvent(json.loads(event.data)))
    if event.event == "error":
        # The same failure the non-streamed call answers with a 503: no provider could finish the reply.
        raise ServiceUnavailableError(
            json.loads(event.data).get("message", "The reply failed."),
            status=503,
            code="upstream_unavailable",
            request_id=request_id,
        )
    return _SKIP


@dataclass(frozen=True)
class VideoEvent:
    """One event of a video job's stream: ``job`` with the job at once and on each change while it is queued or
    running (with ``queuePosition`` while queued), then ``done`` with the job once it has succeeded or failed."""

    type: Literal["job", "done"]
    job: VideoJobEvent


def decode_video_event(event: ServerSentEvent, request_id: str | None) -> Any:
    """A video job's event; ``done`` ends the stream, and an ``error`` event (the job is gone) is raised."""
    if event.event == "job":
        return VideoEvent("job", json.loads(event.data))
    if event.event == "done":
        return _End(VideoEvent("done", json.loads(event.data)))
    if event.event == "error":
        message = json.loads(event.data).get("message", "The video job's events stopped.")
        raise StreamError(message, request_id=request_id)
    return _SKIP


def decode_completion_chunk(event: ServerSentEvent, request_id: str | None) -> Any:
    """An OpenAI chunk; ``[DONE]`` ends the stream and an ``{"error": ...}`` chunk is raised."""
    if event.data == "[DONE]":
        return _End()
    chunk: Any = json.loads(event.data)
    failure = _failure(chunk)
    if failure is not None:
        raise ServiceUnavailableError(failure, status=503, code="upstream_unavailable", request_id=request_id)
    return chunk


def _failure(chunk: Any) -> str | None:
    """The message of an ``{"error": {...}}`` chunk (a completion that failed mid-stream), else None."""
    if not isinstance(chunk, dict) or "error" not in chunk:
        return None
    error: Any = cast(dict[str, Any], chunk)["error"]
    message = cast(dict[str, Any], error).get("message") if isinstance(error, dict) else None
    return str(message or "The completion failed.")


Decoder = Callable[[ServerSentEvent, Union[str, None]], Any]


class _StreamState:
    """What both kinds of stream keep: whether it has been read or closed, and the events read ahead."""

    def __init__(self, response: httpx.Response, decode: Decoder, base_url: str) -> None:
        self.response = response
        self.decode = decode
        self.base_url = base_url
        self.consumed = False
        self.closed = False
        self.pending: list[Any] = []

    @property
    def request_id(self) -> str | None:
        return self.response.headers.get("x-request-id")

    def ended_early(self) -> StreamError:
        return StreamError("The connection closed before the stream was complete.", request_id=self.request_id)

    def transport_failed(self, exc: httpx.TransportError) -> KasaError:
        if isinstance(exc, httpx.TimeoutException):
            return error_from_transport(exc, self.base_url)
        return StreamError(f"The stream broke off: {exc or type(exc).__name__}", request_id=self.request_id)


class EventStream(Generic[T]):
    """A streamed answer, read once with ``for``. Use it in a ``with`` block, or read it to the end, so that the
    connection is released."""

    def __init__(self, response: httpx.Response, decode: Decoder, base_url: str) -> None:
        self._state = _StreamState(response, decode, base_url)
        self._source = self._decoded()

    @property
    def request_id(self) -> str | None:
        """The id the API gave the request (``x-request-id``), to quote when asking for support."""
        return self._state.request_id

    @property
    def response(self) -> httpx.Response:
        return self._state.response

    def close(self) -> None:
        """Hangs up. For a reply that is not resumable, that stops it on the server (it is stored as stopped)."""
        if not self._state.closed:
            self._state.closed = True
            self._state.response.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[T]:
        if self._state.consumed:
            raise RuntimeError("This stream has already been read; a stream can be read once.")
        self._state.consumed = True
        try:
            while True:
                item = self._next()
                if item is _EXHAUSTED:
                    return
                yield item
        finally:
            # Left early (break, an exception): hang up, so that the server stops writing.
            self.close()

    def _next(self) -> Any:
        """The next item, read-ahead ones first; ``_EXHAUSTED`` once the stream has ended."""
        if self._state.pending:
            return self._state.pending.pop(0)
        return self._pull()

    def _pull(self) -> Any:
        item = next(self._source, _EXHAUSTED)
        self._seen(item)
        return item

    def _seen(self, item: Any) -> None:
        """Called with each item as it is read from the connection (a subclass notes what it needs)."""

    def _decoded(self) -> Iterator[Any]:
        state = self._state
        try:
            for event in iter_events(state.response.iter_bytes()):
                if state.closed:
                    return
                item = state.decode(event, state.request_id)
                if item is _SKIP:
                    continue
                if isinstance(item, _End):
                    if item.item is not None:
                        yield item.item
                    return
                yield item
        except httpx.TransportError as exc:
            if state.closed:
                return
            raise state.transport_failed(exc) from exc
        except httpx.StreamClosed:
            return
        if not state.closed:
            raise state.ended_early()


class AsyncEventStream(Generic[T]):
    """A streamed answer, read once with ``async for``. Use it in an ``async with`` block, or read it to the end,
    so that the connection is released."""

    def __init__(self, response: httpx.Response, decode: Decoder, base_url: str) -> None:
        self._state = _StreamState(response, decode, base_url)
        self._source = self._decoded()

    @property
    def request_id(self) -> str | None:
        """The id the API gave the request (``x-request-id``), to quote when asking for support."""
        return self._state.request_id

    @property
    def response(self) -> httpx.Response:
        return self._state.response

    async def close(self) -> None:
        """Hangs up. For a reply that is not resumable, that stops it on the server (it is stored as stopped)."""
        if not self._state.closed:
            self._state.closed = True
            await self._state.response.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def __aiter__(self) -> AsyncIterator[T]:
        if self._state.consumed:
            raise RuntimeError("This stream has already been read; a stream can be read once.")
        self._state.consumed = True
        try:
            while True:
                item = await self._next()
                if item is _EXHAUSTED:
                    return
                yield item
        finally:
            await self.close()

    async def _next(self) -> Any:
        if self._state.pending:
            return self._state.pending.pop(0)
        return await self._pull()

    async def _pull(self) -> Any:
        item = await anext(self._source, _EXHAUSTED)
        self._seen(item)
        return item

    def _seen(self, item: Any) -> None:
        """Called with each item as it is read from the connection (a subclass notes what it needs)."""

    async def _decoded(self) -> AsyncIterator[Any]:
        state = self._state
        try:
            async for event in aiter_events(state.response.aiter_bytes()):
                if state.closed:
                    return
                item = state.decode(event, state.request_id)
                if item is _SKIP:
                    continue
                if isinstance(item, _End):
                    if item.item is not None:
                        yield item.item
                    return
                yield item
        except httpx.TransportError as exc:
            if state.closed:
                return
            raise state.transport_failed(exc) from exc
        except httpx.StreamClosed:
            return
        if not state.closed:
            raise state.ended_early()


ChatCompletionStream = EventStream[ChatCompletionChunk]
AsyncChatCompletionStream = AsyncEventStream[ChatCompletionChunk]
VideoEventStream = EventStream[VideoEvent]
AsyncVideoEventStream = AsyncEventStream[VideoEvent]


class ReplyStream(EventStream[ReplyEvent]):
    """A streamed reply: ``for event in stream`` gives a ``MetaEvent``, then each ``TokenEvent`` in order, then a
    ``DoneEvent`` with the stored reply. ``stop()`` asks the server to stop writing (the loop then ends with the
    reply stored as stopped); ``close()`` hangs up, which stops a reply that is not resumable."""

    def __init__(
        self,
        response: httpx.Response,
        base_url: str,
        stop: Callable[[str], StoredMessage],
    ) -> None:
        super().__init__(response, decode_reply_event, base_url)
        self._stop = stop
        self._meta: MetaEvent | None = None

    @property
    def assistant_message_id(self) -> str | None:
        """The id of the reply being written, once its first event has been read."""
        return self._meta.assistant_message_id if self._meta else None

    def _seen(self, item: Any) -> None:
        if isinstance(item, MetaEvent) and self._meta is None:
            self._meta = item

    def stop(self) -> StoredMessage:
        """Stops the reply on the server, whichever connection is following it, and keeps what was written. Keep
        reading the stream to get the ``DoneEvent`` with ``status`` ``stopped``."""
        while self._meta is None:
            # Not known yet: read ahead to the first event; the loop still gets every event read here.
            item = self._pull()
            if item is _EXHAUSTED:
                raise StreamError("The reply ended before it named its id.", request_id=self.request_id)
            self._state.pending.append(item)
        return self._stop(self._meta.assistant_message_id)

    def final_message(self) -> AssistantReply:
        """Reads the rest of the stream and gives the stored reply."""
        for event in self:
            if isinstance(event, DoneEvent):
                return event.message
        raise StreamError("The reply ended without a final message.", request_id=self.request_id)


class AsyncReplyStream(AsyncEventStream[ReplyEvent]):
    """A streamed reply, read with ``async for``: ``MetaEvent``, each ``TokenEvent`` in order, then ``DoneEvent``.
    ``await stop()`` asks the server to stop writing; ``await close()`` hangs up."""

    def __init__(
        self,
        response: httpx.Response,
        base_url: str,
        stop: Callable[[str], Awaitable[StoredMessage]],
    ) -> None:
        super().__init__(response, decode_reply_event, base_url)
        self._stop = stop
        self._meta: MetaEvent | None = None

    @property
    def assistant_message_id(self) -> str | None:
        """The id of the reply being written, once its first event has been read."""
        return self._meta.assistant_message_id if self._meta else None

    def _seen(self, item: Any) -> None:
        if isinstance(item, MetaEvent) and self._meta is None:
            self._meta = item

    async def stop(self) -> StoredMessage:
        """Stops the reply on the server and keeps what was written; the stream then ends with ``stopped``."""
        while self._meta is None:
            item = await self._pull()
            if item is _EXHAUSTED:
                raise StreamError("The reply ended before it named its id.", request_id=self.request_id)
            self._state.pending.append(item)
        return await self._stop(self._meta.assistant_message_id)

    async def final_message(self) -> AssistantReply:
        """Reads the rest of the stream and gives the stored reply."""
        async for event in self:
            if isinstance(event, DoneEvent):
                return event.message
        raise StreamError("The reply ended without a final message.", request_id=self.request_id)
