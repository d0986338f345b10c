"""Speech: text to speech (Pro and Enterprise plans) and the voices available."""

from __future__ import annotations

from typing import Any, cast

import httpx

from .._http import AsyncTransport, Request, SyncTransport
from .._types import Synthesis, Voice

#: The audio the client takes, in the server's order of preference: the format is the server's setting
#: (VOICE_AUDIO_FORMAT, MP3 by default), not the caller's.
_ACCEPT_AUDIO = "audio/mpeg, audio/ogg, audio/wav"


class Audio(bytes):
    """Synthesized speech: the audio's bytes, with its ``content_type`` (``audio/mpeg``, ``audio/ogg`` or
    ``audio/wav``) and the ``audio_url`` of the stored copy (no credential needed to fetch it; it expires)."""

    content_type: str
    audio_url: str | None

    def __new__(cls, content: bytes, content_type: str, audio_url: str | None) -> Audio:
        audio = super().__new__(cls, content)
        audio.content_type = content_type
        audio.audio_url = audio_url
        return audio


def _voices(language: str | None) -> Request:
    return Request("GET", "/api/voice/voices", query={"language": language})


def _synthesize(
    text: str,
    voice: str | None,
    language: str | None,
    accept: str,
    idempotency_key: str | None,
) -> Request:
    body: dict[str, Any] = {"text": text}
    if voice is not None:
        body["voice"] = voice
    if language is not None:
        body["language"] = language
    return Request(
        "POST", "/api/voice/synthesize", body=body, accept=accept, creates=True, idempotency_key=idempotency_key
    )


def _stored_audio(response: httpx.Response) -> str | None:
    """The stored copy's address when the API answered with JSON instead of the audio itself (a sample it had
    made before, say), else None."""
    if response.headers.get("content-type", "").startswith("application/json"):
        return cast(str, response.json()["audioUrl"])
    return None


def _audio(response: httpx.Response, audio_url: str | None) -> Audio:
    content_type = response.headers.get("content-type", "application/octet-stream").split(";")[0].strip()
    return Audio(response.content, content_type, audio_url or response.headers.get("x-kasa-audio-url"))


def _audio_request(audio_url: str) -> Request:
    # The address is relative to the API (or, from a cloud store, absolute) and is itself the secret: the
    # client's credential is not sent along.
    return Request("GET", audio_url, accept=_ACCEPT_AUDIO, authenticated=False)


class Voices:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def voices(self, language: str | None = None) -> list[Voice]:
        """GET /api/voice/voices → the voices of the installed engines, optionally of one language."""
        return cast(list[Voice], self._http.json(_voices(language))["voices"])

    def synthesize(
        self,
        text: str,
        *,
        voice: str | None = None,
        language: str | None = None,
        idempotency_key: str | None = None,
    ) -> Audio:
        """POST /api/voice/synthesize → the audio: ``bytes``, with its ``content_type`` (MP3 unless the server is
        set up otherwise) and ``audio_url``. ``language`` defaults to ``en``; ``auto`` detects it. Pro and
        Enterprise plans only (403 otherwise; the public samples excepted), and a key needs the ``voice`` scope."""
        response = self._http.send(_synthesize(text, voice, language, _ACCEPT_AUDIO, idempotency_key))
        stored = _stored_audio(response)
        if stored is None:
            return _audio(response, None)
        return _audio(self._http.send(_audio_request(stored)), stored)

    def synthesize_to_url(
        self,
        text: str,
        *,
        voice: str | None = None,
        language: str | None = None,
        idempotency_key: str | None = None,
    ) -> Synthesis:
        """POST /api/voice/synthesize → ``{audioUrl, duration, ...}``: the stored audio's address, which needs no
        credential to fetch (hand it to a player; it expires)."""
        request = _synthesize(text, voice, language, "application/json", idempotency_key)
        return cast(Synthesis, self._http.json(request))


class AsyncVoices:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def voices(self, language: str | None = None) -> list[Voice]:
        """GET /api/voice/voices → the voices of the installed engines, optionally of one language."""
        return cast(list[Voice], (await self._http.json(_voices(language)))["voices"])

    async def synthesize(
        self,
        text: str,
        *,
        voice: str | None = None,
        language: str | None = None,
        idempotency_key: str | None = None,
    ) -> Audio:
        """POST /api/voice/synthesize → the audio (``bytes`` with ``content_type`` and ``audio_url``)."""
        response = await self._http.send(_synthesize(text, voice, language, _ACCEPT_AUDIO, idempotency_key))
        stored = _stored_audio(response)
        if stored is None:
            return _audio(response, None)
        return _audio(await self._http.send(_audio_request(stored)), stored)

    async def synthesize_to_url(
        self,
        text: str,
        *,
        voice: str | None = None,
        language: str | None = None,
        idempotency_key: str | None = None,
    ) -> Synthesis:
        """POST /api/voice/synthesize → ``{audioUrl, duration, ...}``: the stored audio's address."""
        request = _synthesize(text, voice, language, "application/json", idempotency_key)
        return cast(Synthesis, await self._http.json(request))
