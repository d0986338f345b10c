"""Attachments through the SDK against the platform: a document uploaded, sent with a message, read back and
deleted on the Pro plan; the refusals of a Free account, an unknown type and someone else's attachment."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

import kasa
from kasa import AsyncKasa, Kasa

NOTES = "# Bonwire\n\nKente is woven here.".encode()


def test_uploads_a_document_sends_it_with_a_message_reads_it_back_and_deletes_it(pro: Kasa) -> None:
    notes = pro.attachments.upload(NOTES, name="notes.md")
    assert (notes["kind"], notes["name"], notes["mediaType"], notes["size"]) == (
        "document",
        "notes.md",
        "text/markdown",
        len(NOTES),
    )
    assert notes["hasThumbnail"] is False

    session = pro.chat.sessions.create(persona_id="kasa", title="Files")
    reply = pro.chat.messages.send(session["id"], "What does it say?", attachment_ids=[notes["id"]])
    question = next(m for m in pro.chat.messages.list(session["id"])["messages"] if m["id"] == reply["userMessageId"])
    assert question.get("attachments") == [
        {"id": notes["id"], "kind": "document", "name": "notes.md", "mediaType": "text/markdown", "size": len(NOTES)}
    ]

    file = pro.attachments.get(notes["id"])
    assert (bytes(file), file.media_type, file.name) == (NOTES, "text/markdown", "notes.md")
    with pytest.raises(kasa.NotFoundError):
        pro.attachments.thumbnail(notes["id"])
    pro.attachments.delete(notes["id"])
    with pytest.raises(kasa.NotFoundError):
        pro.attachments.get(notes["id"])


def test_refuses_a_free_account_an_unknown_type_and_someone_elses_attachment(
    pro: Kasa, signed_in: Callable[[], Kasa], base_url: str
) -> None:
    with pytest.raises(kasa.PermissionDeniedError) as refused:
        signed_in().attachments.upload(NOTES, name="notes.md")
    assert refused.value.code == "forbidden"
    with pytest.raises(kasa.UnsupportedMediaTypeError) as unknown:
        pro.attachments.upload(b"\x00\x13\x37\x00\x42", name="blob.bin")
    assert (unknown.value.status, unknown.value.code) == (415, "unsupported_media_type")

    async def upload_async() -> str:
        async with AsyncKasa(base_url=base_url, token=pro.token) as client:
            stored = await client.attachments.upload(NOTES, name="notes.md")
            return stored["id"]

    notes_id = asyncio.run(upload_async())
    with pytest.raises(kasa.NotFoundError):
        signed_in().attachments.get(notes_id)
