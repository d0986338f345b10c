"""The Kasa API clients: ``Kasa`` (blocking) and ``AsyncKasa`` (asyncio), with the same resources."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Self

import httpx

from ._http import DEFAULT_TIMEOUT, AsyncTransport, Settings, SyncTransport
from ._retry import RetryPolicy
from .resources.api_keys import ApiKeys, AsyncApiKeys
from .resources.attachments import AsyncAttachments, Attachments
from .resources.auth import AsyncAuth, Auth
from .resources.chat import AsyncChat, Chat
from .resources.completions import AsyncCompletions, Completions
from .resources.geo import AsyncGeo, Geo
from .resources.languages import AsyncLanguages, Languages
from .resources.personas import AsyncPersonas, Personas
from .resources.video import AsyncVideos, Videos
from .resources.voice import AsyncVoices, Voices

DEFAULT_BASE_URL = "http://localhost:8080"


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


#: "Not passed" where None means something (``timeout=None`` waits for ever).
NOT_GIVEN: Any = _NotGiven()

Timeout = float | httpx.Timeout | None


class _Credentials:
    """The token and the key; shared by a client and the copies ``with_options`` makes of it."""

    def __init__(self, api_key: str | None, token: str | None) -> None:
        self.api_key = api_key
        self.token = token

    def current(self) -> str | None:
        # A signed-in token wins: account routes refuse API keys.
        return self.token or self.api_key


def _timeout(value: Timeout) -> httpx.Timeout:
    if isinstance(value, httpx.Timeout):
        return value
    return httpx.Timeout(value)


def _settings(
    credentials: _Credentials,
    base_url: str | None,
    timeout: Timeout,
    max_retries: int,
    max_retry_delay: float,
    retry_policy: RetryPolicy | None,
    headers: Mapping[str, str] | None,
    idempotency_keys: bool,
) -> Settings:
    if max_retries < 0:
        raise ValueError("max_retries must be 0 or more")
    policy = retry_policy or RetryPolicy(max_retries=max_retries, max_retry_delay=max_retry_delay)
    return Settings(
        base_url=base_url or os.environ.get("KASA_BASE_URL") or DEFAULT_BASE_URL,
        credential=credentials.current,
        retry=policy,
        timeout=DEFAULT_TIMEOUT if timeout is NOT_GIVEN else _timeout(timeout),
        headers=dict(headers or {}),
        idempotency_keys=idempotency_keys,
    )


def _changed(
    settings: Settings, timeout: Timeout, max_retries: int | None, headers: Mapping[str, str] | None
) -> Settings:
    changes: dict[str, Any] = {}
    if timeout is not NOT_GIVEN:
        changes["timeout"] = _timeout(timeout)
    if max_retries is not None:
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        changes["retry"] = replace(settings.retry, max_retries=max_retries)
    if headers is not None:
        changes["headers"] = {**settings.headers, **headers}
    return settings.changed(**changes)


class Kasa:
    """The Kasa API client (blocking). One per credential; it keeps a pool of connections: ``close()`` it, or use
    it in a ``with`` block.

    ```python
    kasa = Kasa(api_key=os.environ["KASA_API_KEY"], base_url="https://kasa.example")
    session = kasa.chat.sessions.create(persona_id="kasa", title="Hello")
    with kasa.chat.messages.stream(session["id"], "Akwaaba!") as reply:
        for event in reply:
            if event.type == "token":
                print(event.text, end="", flush=True)
    ```

    ``api_key`` defaults to ``$KASA_API_KEY`` and ``base_url`` to ``$KASA_BASE_URL``, else http://localhost:8080.
    ``token`` is an access token (``auth.login`` sets it); it wins over the key when both are set. ``timeout`` is in
    seconds (or an ``httpx.Timeout``; None waits for ever): 60 s for an answer or the next piece of a stream, 10 s
    to connect. ``max_retries`` (default 2) and ``max_retry_delay`` (default 60 s, the longest wait the client
    accepts) bound the retries; ``idempotency_keys`` (default on) sends an ``Idempotency-Key`` with each creating
    POST so that those may be retried too. ``http_client`` is an ``httpx.Client`` of yours (proxies, certificates);
    the client does not close it.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        token: str | None = None,
        base_url: str | None = None,
        timeout: Timeout = NOT_GIVEN,
        max_retries: int = 2,
        max_retry_delay: float = 60.0,
        retry_policy: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        idempotency_keys: bool = True,
        http_client: httpx.Client | None = None,
    ) -> None:
        credentials = _Credentials(api_key or os.environ.get("KASA_API_KEY") or None, token)
        settings = _settings(
            credentials, base_url, timeout, max_retries, max_retry_delay, retry_policy, headers, idempotency_keys
        )
        self._owns_client = http_client is None
        self._setup(credentials, SyncTransport(settings, http_client or httpx.Client()))

    def _setup(self, credentials: _Credentials, transport: SyncTransport) -> None:
        self._credentials = credentials
        self._transport = transport
        self.auth = Auth(transport, self.set_token)
        self.personas = Personas(transport)
        self.chat = Chat(transport)
        self.attachments = Attachments(transport)
        self.completions = Completions(transport)
        self.voice = Voices(transport)
        self.video = Videos(transport)
        self.languages = Languages(transport)
        self.geo = Geo(transport)
        self.api_keys = ApiKeys(transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def token(self) -> str | None:
        """The access token the client sends, if any."""
        return self._credentials.token

    def set_token(self, token: str | None) -> None:
        """Signs later calls with ``token`` (None: back to the API key, if any)."""
        self._credentials.token = token

    def with_options(
        self,
        *,
        timeout: Timeout = NOT_GIVEN,
        max_retries: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Kasa:
        """The same client (connections and credentials shared) with another timeout, retry count or headers, e.g.
        ``kasa.with_options(timeout=5, max_retries=0).languages.detect("Akwaaba")``."""
        copy = object.__new__(Kasa)
        copy._owns_client = False
        copy._setup(
            self._credentials,
            self._transport.with_settings(_changed(self._transport.settings, timeout, max_retries, headers)),
        )
        return copy

    def close(self) -> None:
        """Closes the connections (unless the ``http_client`` was yours)."""
        if self._owns_client:
            self._transport.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Kasa(base_url={self.base_url!r})"


class AsyncKasa:
    """The Kasa API client for asyncio: the same resources as ``Kasa``, each call awaited, streams read with
    ``async for``. ``await close()`` it, or use it in an ``async with`` block. Options as for ``Kasa``
    (``http_client`` is an ``httpx.AsyncClient``)."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        token: str | None = None,
        base_url: str | None = None,
        timeout: Timeout = NOT_GIVEN,
        max_retries: int = 2,
        max_retry_delay: float = 60.0,
        retry_policy: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        idempotency_keys: bool = True,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        credentials = _Credentials(api_key or os.environ.get("KASA_API_KEY") or None, token)
        settings = _settings(
            credentials, base_url, timeout, max_retries, max_retry_delay, retry_policy, headers, idempotency_keys
        )
        self._owns_client = http_client is None
        self._setup(credentials, AsyncTransport(settings, http_client or httpx.AsyncClient()))

    def _setup(self, credentials: _Credentials, transport: AsyncTransport) -> None:
        self._credentials = credentials
        self._transport = transport
        self.auth = AsyncAuth(transport, self.set_token)
        self.personas = AsyncPersonas(transport)
        self.chat = AsyncChat(transport)
        self.attachments = AsyncAttachments(transport)
        self.completions = AsyncCompletions(transport)
        self.voice = AsyncVoices(transport)
        self.video = AsyncVideos(transport)
        self.languages = AsyncLanguages(transport)
        self.geo = AsyncGeo(transport)
        self.api_keys = AsyncApiKeys(transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def token(self) -> str | None:
        """The access token the client sends, if any."""
        return self._credentials.token

    def set_token(self, token: str | None) -> None:
        """Signs later calls with ``token`` (None: back to the API key, if any)."""
        self._credentials.token = token

    def with_options(
        self,
        *,
        timeout: Timeout = NOT_GIVEN,
        max_retries: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> AsyncKasa:
        """The same client (connections and credentials shared) with another timeout, retry count or headers."""
        copy = object.__new__(AsyncKasa)
        copy._owns_client = False
        copy._setup(
            self._credentials,
            self._transport.with_settings(_changed(self._transport.settings, timeout, max_retries, headers)),
        )
        return copy

    async def close(self) -> None:
        """Closes the connections (unless the ``http_client`` was yours)."""
        if self._owns_client:
            await self._transport.client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncKasa(base_url={self.base_url!r})"
