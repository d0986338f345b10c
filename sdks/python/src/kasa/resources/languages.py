"""The language catalogue (what Kasa can do in each language) and language detection."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import quote

from .._http import AsyncTransport, Request, SyncTransport
from .._types import DetectedLanguage, DetectHints, Language, LanguageCapability, LanguageList


def _list(capability: LanguageCapability | None) -> Request:
    return Request("GET", "/api/languages", query={"capability": capability})


def _get(code: str) -> Request:
    return Request("GET", f"/api/languages/{quote(code, safe='')}")


def _detect(text: str, hints: DetectHints | None) -> Request:
    body: dict[str, Any] = {"text": text}
    if hints is not None:
        body["hints"] = hints
    # Detection only reads: safe to repeat.
    return Request("POST", "/api/languages/detect", body=body, idempotent=True)


class Languages:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def list(self, capability: LanguageCapability | None = None) -> LanguageList:
        """GET /api/languages → ``{count, languages}``, optionally only those with one capability."""
        return cast(LanguageList, self._http.json(_list(capability)))

    def get(self, code: str) -> Language:
        """GET /api/languages/:code → one language by any code or tag (``tw``, ``twi``, ``en-GB``)."""
        return cast(Language, self._http.json(_get(code)))

    def detect(self, text: str, *, hints: DetectHints | None = None) -> DetectedLanguage:
        """POST /api/languages/detect → the likeliest language, its confidence and the alternatives."""
        return cast(DetectedLanguage, self._http.json(_detect(text, hints)))


class AsyncLanguages:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def list(self, capability: LanguageCapability | None = None) -> LanguageList:
        """GET /api/languages → ``{count, languages}``, optionally only those with one capability."""
        return cast(LanguageList, await self._http.json(_list(capability)))

    async def get(self, code: str) -> Language:
        """GET /api/languages/:code → one language by any code or tag (``tw``, ``twi``, ``en-GB``)."""
        return cast(Language, await self._http.json(_get(code)))

    async def detect(self, text: str, *, hints: DetectHints | None = None) -> DetectedLanguage:
        """POST /api/languages/detect → the likeliest language, its confidence and the alternatives."""
        return cast(DetectedLanguage, await self._http.json(_detect(text, hints)))
