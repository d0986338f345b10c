"""The OpenAI-compatible API (``/v1``): personas are the models. The official ``openai`` package works against it
too; this is the same API without another dependency."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from .._http import AsyncTransport, Request, SyncTransport
from .._streams import AsyncChatCompletionStream, AsyncEventStream, ChatCompletionStream, EventStream
from .._streams import decode_completion_chunk
from .._types import ChatCompletion, ChatMessage, ModelList

_MODELS = Request("GET", "/v1/models")


def _create(
    model: str,
    messages: Sequence[ChatMessage],
    stream: bool,
    include_usage: bool,
    extra: dict[str, Any],
    idempotency_key: str | None,
) -> Request:
    body: dict[str, Any] = {**extra, "model": model, "messages": list(messages), "stream": stream}
    if stream and include_usage:
        body["stream_options"] = {"include_usage": True}
    return Request(
        "POST",
        "/v1/chat/completions",
        body=body,
        accept="text/event-stream" if stream else "application/json",
        creates=True,
        idempotency_key=idempotency_key,
    )


class Completions:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def create(
        self,
        *,
        model: str,
        messages: Sequence[ChatMessage],
        idempotency_key: str | None = None,
        **extra: Any,
    ) -> ChatCompletion:
        """POST /v1/chat/completions → the whole completion. ``extra`` goes into the body as given
        (``temperature``, ``max_tokens``, ``user``, ...)."""
        request = _create(model, messages, False, False, extra, idempotency_key)
        return cast(ChatCompletion, self._http.json(request))

    def stream(
        self,
        *,
        model: str,
        messages: Sequence[ChatMessage],
        include_usage: bool = False,
        idempotency_key: str | None = None,
        **extra: Any,
    ) -> ChatCompletionStream:
        """POST /v1/chat/completions with ``stream: true`` → OpenAI's chunks, read with ``for`` until the end. With
        ``include_usage`` the last chunk carries the token counts."""
        request = _create(model, messages, True, include_usage, extra, idempotency_key)
        response = self._http.send(request, stream=True)
        return EventStream(response, decode_completion_chunk, self._http.base_url)

    def models(self) -> ModelList:
        """GET /v1/models → the personas (and the caller's custom ones) as models."""
        return cast(ModelList, self._http.json(_MODELS))


class AsyncCompletions:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def create(
        self,
        *,
        model: str,
        messages: Sequence[ChatMessage],
        idempotency_key: str | None = None,
        **extra: Any,
    ) -> ChatCompletion:
        """POST /v1/chat/completions → the whole completion."""
        request = _create(model, messages, False, False, extra, idempotency_key)
        return cast(ChatCompletion, await self._http.json(request))

    async def stream(
        self,
        *,
        model: str,
        messages: Sequence[ChatMessage],
        include_usage: bool = False,
        idempotency_key: str | None = None,
        **extra: Any,
    ) -> AsyncChatCompletionStream:
        """POST /v1/chat/completions with ``stream: true`` → OpenAI's chunks, read with ``async for``."""
        request = _create(model, messages, True, include_usage, extra, idempotency_key)
        response = await self._http.send(request, stream=True)
        return AsyncEventStream(response, decode_completion_chunk, self._http.base_url)

    async def models(self) -> ModelList:
        """GET /v1/models → the personas (and the caller's custom ones) as models."""
        return cast(ModelList, await self._http.json(_MODELS))
