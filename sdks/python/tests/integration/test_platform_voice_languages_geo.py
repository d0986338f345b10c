"""Speech, the language catalogue and detection, and geo lookup through the SDK against the platform."""

from __future__ import annotations

import asyncio

import httpx
import pytest

import kasa
from kasa import AsyncKasa, Kasa


def test_lists_gets_and_detects_languages(base_url: str) -> None:
    with Kasa(base_url=base_url) as client:
        catalogue = client.languages.list(capability="detect")
        assert catalogue["count"] > 30 and catalogue["count"] == len(catalogue["languages"])
        assert all(language["capabilities"]["detect"] for language in catalogue["languages"])
        assert client.languages.get("twi")["code"] == "tw"
        detected = client.languages.detect("Bonjour, comment allez-vous aujourd’hui ?")
        assert detected["language"] == "fr" and 0 < detected["confidence"] <= 1
        hinted = client.languages.detect("Habari ya asubuhi, rafiki yangu", hints={"browserLocale": "en-KE"})
        assert hinted["language"] == "sw"

        with pytest.raises(kasa.NotFoundError):
            client.languages.get("zz")
        with pytest.raises(kasa.BadRequestError):
            client.languages.detect("")


def test_lists_voices_and_looks_up_addresses(base_url: str) -> None:
    with Kasa(base_url=base_url) as client:
        voices = client.voice.voices()
        assert voices and all({"id", "name", "language", "engine"} <= set(voice) for voice in voices)
        assert all(voice["language"] == "sw" for voice in client.voice.voices(language="sw"))

        accra = client.geo.lookup(ip="41.66.199.1")
        assert (accra["found"], accra["country"], accra["currency"]) == (True, "GH", "GHS")
        private = client.geo.lookup(ip="10.0.0.1")
        assert (private["ip"], private["found"]) == ("10.0.0.1", False)
        assert client.geo.lookup()["found"] is False  # the loopback address: an unknown place, not an error
        with pytest.raises(kasa.BadRequestError):
            client.geo.lookup(ip="not-an-ip")


def test_speaks_for_pro_as_audio_bytes_and_as_a_stored_address(pro: Kasa, base_url: str) -> None:
    mp3 = pro.voice.synthesize("Akwaaba. Welcome to Kasa.", language="en")
    assert len(mp3) > 1_000
    # The platform's default format: an MP3 starts with an ID3 tag or a frame sync.
    assert mp3.content_type == "audio/mpeg"
    assert mp3[:3] == b"ID3" or (mp3[0] == 0xFF and mp3[1] & 0xE0 == 0xE0)
    # The stored copy, complete once the stream has ended, is the same audio.
    assert mp3.audio_url is not None
    assert httpx.get(base_url + mp3.audio_url, timeout=30).content == mp3

    stored = pro.voice.synthesize_to_url("Habari yako?", language="sw")
    assert stored["duration"] > 0
    # The address needs no credential.
    audio = httpx.get(base_url + stored["audioUrl"], timeout=30)
    assert audio.status_code == 200 and audio.headers["content-type"].startswith("audio/")
    assert len(audio.content) > 1_000


def test_speaks_a_public_sample_for_anyone_also_when_the_platform_answers_from_its_cache(base_url: str) -> None:
    # The SDK has no call for the landing page's samples; their texts are read aloud for anyone.
    sample = httpx.get(f"{base_url}/api/voice/samples", timeout=30).json()["samples"][0]
    with Kasa(base_url=base_url) as anonymous:
        first = anonymous.voice.synthesize(sample["text"], language=sample["language"])
        # Made before: the platform answers with the stored copy's address, which the SDK fetches.
        again = anonymous.voice.synthesize(sample["text"], language=sample["language"])
    assert len(first) > 1_000
    assert again == first
    assert again.audio_url == first.audio_url


def test_speech_on_the_free_plan_is_a_403_naming_the_plan(client: Kasa) -> None:
    with pytest.raises(kasa.PermissionDeniedError) as raised:
        client.voice.synthesize("Akwaaba")
    assert raised.value.status == 403
    assert "Pro" in raised.value.message
    with pytest.raises(kasa.BadRequestError):
        client.voice.synthesize("")


def test_the_async_client_speaks_and_detects(pro: Kasa, base_url: str) -> None:
    async def run() -> tuple[bytes, str]:
        async with AsyncKasa(base_url=base_url, token=pro.token) as client:
            audio = await client.voice.synthesize("Maakye", language="en")
            detected = await client.languages.detect("Guten Morgen, wie geht es dir heute?")
            return audio, detected["language"]

    audio, language = asyncio.run(run())
    assert len(audio) > 500
    assert language == "de"
