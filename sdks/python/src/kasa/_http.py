"""The transport under every SDK call: JSON in and out, the bearer credential, Kasa's error body turned into a
KasaError, and bounded retries of the calls that are safe to repeat."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from ._errors import KasaError, error_from_status, error_from_transport
from ._retry import RetryPolicy, retry_delay
from ._version import __version__

#: Methods that do the same however often they are sent: a failure may always be retried.
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})

#: Connect quickly or not at all; an answer (or the next piece of a stream) may take longer.
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)

_NO_BODY: Any = object()


@dataclass(frozen=True)
class Request:
    """One call: where, what, and whether it is safe to send again."""

    method: str
    path: str
    query: Mapping[str, Any] | None = None
    body: Any = _NO_BODY
    #: A body sent as it is instead of JSON (a file's bytes), with ``content_type``.
    content: bytes | None = None
    content_type: str | None = None
    accept: str = "application/json"
    #: Safe to repeat by its nature (a POST that only reads or stops, say); GET, PUT and DELETE always are.
    idempotent: bool = False
    #: A POST that creates something: it gets an ``Idempotency-Key`` when the client adds them.
    creates: bool = False
    #: The caller's own ``Idempotency-Key`` (wins over the one the client would make).
    idempotency_key: str | None = None
    #: Send the client's credential (not for a stored audio file's address, which may be on another host).
    authenticated: bool = True


@dataclass(frozen=True)
class Settings:
    """What the client was configured with; ``with_options`` makes a changed copy."""

    base_url: str
    credential: Callable[[], str | None]
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    timeout: httpx.Timeout = field(default_factory=lambda: DEFAULT_TIMEOUT)
    headers: Mapping[str, str] = field(default_factory=dict[str, str])
    idempotency_keys: bool = True

    def changed(self, **changes: Any) -> Settings:
        return replace(self, **changes)


class _Transport:
    """What the sync and the async transport share: building the request, and deciding about a retry."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @property
    def base_url(self) -> str:
        return self.settings.base_url

    def url(self, path: str) -> str:
        if path.startswith(("http://", "https://")):
            return path
        return self.settings.base_url.rstrip("/") + path

    def _headers(self, request: Request) -> dict[str, str]:
        headers = {"Accept": request.accept, "User-Agent": f"kasa-python/{__version__}", **self.settings.headers}
        credential = self.settings.credential() if request.authenticated else None
        if credential:
            headers["Authorization"] = f"Bearer {credential}"
        key = request.idempotency_key
        if key is None and request.creates and self.settings.idempotency_keys:
            key = str(uuid.uuid4())
        if key is not None:
            headers["Idempotency-Key"] = key
        return headers

    def _build(self, client: httpx.Client | httpx.AsyncClient, request: Request) -> httpx.Request:
        # Built once per call: every retry sends the same Idempotency-Key.
        query = {k: _query_value(v) for k, v in (request.query or {}).items() if v is not None}
        headers = self._headers(request)
        if request.content is not None:
            headers["Content-Type"] = request.content_type or "application/octet-stream"
            return client.build_request(
                request.method,
                self.url(request.path),
                params=query or None,
                headers=headers,
                content=request.content,
                timeout=self.settings.timeout,
            )
        return client.build_request(
            request.method,
            self.url(request.path),
            params=query or None,
            headers=headers,
            json=None if request.body is _NO_BODY else request.body,
            timeout=self.settings.timeout,
        )

    def _retryable(self, request: Request, built: httpx.Request) -> bool:
        return request.method in IDEMPOTENT_METHODS or request.idempotent or "idempotency-key" in built.headers

    def _wait(self, error: KasaError, attempt: int, retryable: bool) -> float | None:
        return retry_delay(error, attempt, self.settings.retry, retryable_call=retryable)


class SyncTransport(_Transport):
    def __init__(self, settings: Settings, client: httpx.Client) -> None:
        super().__init__(settings)
        self.client = client

    def with_settings(self, settings: Settings) -> SyncTransport:
        return SyncTransport(settings, self.client)

    def send(self, request: Request, *, stream: bool = False) -> httpx.Response:
        """The OK answer (its body unread when ``stream``); raises a KasaError otherwise, after the retries."""
        built = self._build(self.client, request)
        retryable = self._retryable(request, built)
        attempt = 0
        while True:
            try:
                response = self.client.send(built, stream=stream)
            except httpx.TransportError as exc:
                error: KasaError = error_from_transport(exc, self.base_url)
                wait = self._wait(error, attempt, retryable)
                if wait is None:
                    raise error from exc
            else:
                if response.is_success:
                    return response
                try:
                    body = response.read()
                except httpx.TransportError:
                    body = b""
                finally:
                    response.close()
                error = error_from_status(response.status_code, body, response.headers)
                wait = self._wait(error, attempt, retryable)
                if wait is None:
                    raise error
            time.sleep(wait)
            attempt += 1

    def json(self, request: Request) -> Any:
        """``send``, then the JSON body; None for an empty answer (204)."""
        response = self.send(request)
        return response.json() if response.content else None


class AsyncTransport(_Transport):
    def __init__(self, settings: Settings, client: httpx.AsyncClient) -> None:
        super().__init__(settings)
        self.client = client

    def with_settings(self, settings: Settings) -> AsyncTransport:
        return AsyncTransport(settings, self.client)

    async def send(self, request: Request, *, stream: bool = False) -> httpx.Response:
        """The OK answer (its body unread when ``stream``); raises a KasaError otherwise, after the retries."""
        built = self._build(self.client, request)
        retryable = self._retryable(request, built)
        attempt = 0
        while True:
            try:
                response = await self.client.send(built, stream=stream)
            except httpx.TransportError as exc:
                error: KasaError = error_from_transport(exc, self.base_url)
                wait = self._wait(error, attempt, retryable)
                if wait is None:
                    raise error from exc
            else:
                if response.is_success:
                    return response
                try:
                    body = await response.aread()
                except httpx.TransportError:
                    body = b""
                finally:
                    await response.aclose()
                error = error_from_status(response.status_code, body, response.headers)
                wait = self._wait(error, attempt, retryable)
                if wait is None:
                    raise error
            await asyncio.sleep(wait)
            attempt += 1

    async def json(self, request: Request) -> Any:
        """``send``, then the JSON body; None for an empty answer (204)."""
        response = await self.send(request)
        return response.json() if response.content else None


def _query_value(value: Any) -> str:
    # Python's True is "True"; the API's query strings say "true".
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
