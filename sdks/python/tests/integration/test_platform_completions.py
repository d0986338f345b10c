"""The OpenAI-compatible API through the SDK against the platform, whole and streamed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

import kasa
from platform_support import FakeProvider
from kasa import AsyncKasa, ChatMessage, Kasa


def test_completes_whole_and_streamed_and_lists_the_models(client: Kasa, provider: FakeProvider) -> None:
    provider.answer("Me din de Ama", delay_ms=2)
    messages: list[ChatMessage] = [{"role": "user", "content": "Hi"}]

    completion = client.completions.create(model="merla", messages=messages, temperature=0.2)
    assert completion["object"] == "chat.completion"
    assert completion["choices"][0]["message"]["content"] == "Me din de Ama"
    assert completion["usage"]["completion_tokens"] > 0

    text = ""
    usage = None
    with client.completions.stream(model="kasa", messages=messages, include_usage=True) as stream:
        for chunk in stream:
            assert chunk["object"] == "chat.completion.chunk"
            if chunk["choices"]:
                text += chunk["choices"][0]["delta"].get("content", "")
            usage = usage or chunk.get("usage")
    assert text == "Me din de Ama"
    assert usage is not None and usage["completion_tokens"] > 0

    models = client.completions.models()["data"]
    assert {"kasa", "dokta"} <= {model["id"] for model in models}
    # Each model carries its persona's name and expertise.
    assert all(model["name"] and model["description"] for model in models), models


def test_works_with_an_api_key(signed_in: Callable[[], Kasa], base_url: str) -> None:
    owner = signed_in()
    secret = owner.api_keys.create(name="Completions", scopes=["chat"])["secret"]
    with Kasa(base_url=base_url, api_key=secret) as keyed:
        answer = keyed.completions.create(model="kasa", messages=[{"role": "user", "content": "Hi"}])
    assert answer["choices"][0]["message"]["content"]


def test_an_unknown_model_is_a_404_and_no_messages_a_400(client: Kasa) -> None:
    with pytest.raises(kasa.NotFoundError):
        client.completions.create(model="no-such-persona", messages=[{"role": "user", "content": "Hi"}])
    with pytest.raises(kasa.BadRequestError):
        client.completions.stream(model="kasa", messages=[])


def test_the_async_client_streams_a_completion(base_url: str, provider: FakeProvider) -> None:
    provider.answer("Ete sen", delay_ms=2)

    async def run() -> str:
        async with AsyncKasa(base_url=base_url) as client:
            from platform_support import new_person

            await client.auth.register(**new_person())
            stream = await client.completions.stream(model="kasa", messages=[{"role": "user", "content": "Hi"}])
            return "".join([c["choices"][0]["delta"].get("content", "") async for c in stream if c["choices"]])

    assert asyncio.run(run()) == "Ete sen"
