"""Attachments: the upload's raw body and name, the files read back, deleting, the refusals as their error classes,
and ``attachment_ids`` of a message, with the blocking and the asyncio client."""

from __future__ import annotations

import asyncio
import json

import pytest

import kasa
from kasa import AsyncKasa, Attachment, Kasa
from local_server import LocalServer, Recorded, Reply

STORED: Attachment = {
    "id": "AAAAAAAAAAAAAAAAAAAAAA",
    "kind": "image",
    "name": "kente.png",
    "mediaType": "image/png",
    "size": 4,
    "createdAt": "2026-11-24T09:30:00.000Z",
    "hasThumbnail": True,
}
REPLY = {
    "id": "a1",
    "role": "assistant",
    "content": "A kente cloth.",
    "timestamp": "2026-11-24T09:30:01.000Z",
    "type": "text",
    "status": "complete",
    "userMessageId": "u1",
}


def client(server: LocalServer) -> Kasa:
    return Kasa(base_url=server.base_url, api_key="ksk_test", max_retries=0)


def test_uploads_the_bytes_as_the_body_with_the_name_in_the_query_and_an_idempotency_key(server: LocalServer) -> None:
    server.replies = [Reply(201, body=STORED)]
    assert client(server).attachments.upload(b"\x89PNG", name="my kente.png") == STORED
    request = server.requests[0]
    assert (request.method, request.path) == ("POST", "/api/chat/attachments?name=my+kente.png")
    assert request.body == b"\x89PNG"
    assert request.headers["content-type"] == "application/octet-stream"
    assert "idempotency-key" in request.headers


def test_sends_the_declared_type_and_the_same_body_and_key_on_a_retry(server: LocalServer) -> None:
    busy = Reply(503, headers={"Retry-After": "0"}, body={"message": "busy", "code": "upstream_unavailable"})
    server.replies = [busy, Reply(201, body=STORED)]
    kasa_client = Kasa(base_url=server.base_url, api_key="ksk_test")
    kasa_client.attachments.upload(bytearray(b"# Notes"), name="notes.md", content_type="text/markdown")
    first, second = server.requests
    assert first.body == second.body == b"# Notes"
    assert first.headers["content-type"] == "text/markdown"
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"]


def test_refuses_an_upload_without_a_name_or_bytes_before_sending_anything(server: LocalServer) -> None:
    with pytest.raises(ValueError):
        client(server).attachments.upload(b"x", name="  ")
    with pytest.raises(TypeError):
        client(server).attachments.upload("not bytes", name="a.txt")  # type: ignore[arg-type]
    assert server.requests == []


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (403, "forbidden", kasa.PermissionDeniedError),
        (409, "conflict", kasa.ConflictError),
        (413, "payload_too_large", kasa.PayloadTooLargeError),
        (415, "unsupported_media_type", kasa.UnsupportedMediaTypeError),
    ],
)
def test_raises_each_refusal_as_its_error_class(
    server: LocalServer, status: int, code: str, cls: type[kasa.KasaError]
) -> None:
    server.replies = [Reply(status, body={"message": f"refused {status}", "code": code, "details": {"plan": "pro"}})]
    with pytest.raises(cls) as raised:
        client(server).attachments.upload(b"x", name="a.png")
    assert (raised.value.status, raised.value.code, raised.value.details) == (status, code, {"plan": "pro"})
    # Not Kasa's error JSON (a proxy's page): the same class, with the code the status stands for.
    server.replies = [Reply(status, headers={"Content-Type": "text/html"}, body="<h1>No</h1>")]
    with pytest.raises(cls) as raised:
        client(server).attachments.upload(b"x", name="a.png")
    assert raised.value.code == code


def test_reads_a_file_and_its_thumbnail_and_deletes_one(server: LocalServer) -> None:
    def answer(request: Recorded) -> Reply:
        if request.method == "DELETE":
            return Reply(204)
        if request.path.endswith("/thumbnail"):
            headers = {"Content-Type": "image/webp", "Content-Disposition": 'inline; filename="kente.png.webp"'}
            return Reply(headers=headers, body=b"RIFF")
        disposition = "attachment; filename=\"_ntoa.txt\"; filename*=UTF-8''%C9%94ntoa.txt"
        headers = {"Content-Type": "text/plain; charset=utf-8", "Content-Disposition": disposition}
        return Reply(headers=headers, body=b"Bonwire")

    server.handler = answer
    attachments = client(server).attachments
    file = attachments.get("id/with?odd")
    assert (file, file.media_type, file.name) == (b"Bonwire", "text/plain", "ɔntoa.txt")
    preview = attachments.thumbnail(STORED["id"])
    assert (preview, preview.media_type, preview.name) == (b"RIFF", "image/webp", "kente.png.webp")
    assert attachments.delete(STORED["id"]) is None
    assert [f"{r.method} {r.path}" for r in server.requests] == [
        "GET /api/chat/attachments/id%2Fwith%3Fodd",
        f"GET /api/chat/attachments/{STORED['id']}/thumbnail",
        f"DELETE /api/chat/attachments/{STORED['id']}",
    ]


def test_sends_attachment_ids_with_a_message_only_when_given(server: LocalServer) -> None:
    server.replies = [Reply(body=REPLY)]
    messages = client(server).chat.messages
    messages.send("s1", "What is this?", attachment_ids=[STORED["id"]])
    messages.send("s1", "And this?", attachment_ids=())
    messages.send("s1", "Hello")
    assert [r.json().get("attachmentIds") for r in server.requests] == [[STORED["id"]], [], None]
    with pytest.raises(TypeError):
        messages.send("s1", "Oops", attachment_ids=STORED["id"])


def test_the_async_client_uploads_reads_deletes_and_sends_attachment_ids(server: LocalServer) -> None:
    def answer(request: Recorded) -> Reply:
        if request.path.startswith("/api/chat/attachments?"):
            return Reply(201, body=STORED)
        if request.method == "DELETE":
            return Reply(204)
        if request.path.startswith("/api/chat/attachments/"):
            return Reply(headers={"Content-Type": "image/png"}, body=b"\x89PNG")
        return Reply(body=REPLY)

    server.handler = answer

    async def run() -> tuple[object, bytes, str]:
        async with AsyncKasa(base_url=server.base_url, api_key="ksk_test") as async_client:
            uploaded = await async_client.attachments.upload(memoryview(b"\x89PNG"), name="kente.png")
            file = await async_client.attachments.get(uploaded["id"])
            await async_client.chat.messages.send("s1", "What is this?", attachment_ids=[uploaded["id"]])
            await async_client.attachments.delete(uploaded["id"])
            return uploaded, bytes(file), file.media_type

    assert asyncio.run(run()) == (STORED, b"\x89PNG", "image/png")
    assert server.requests[0].body == b"\x89PNG"
    assert json.loads(server.requests[2].body)["attachmentIds"] == [STORED["id"]]
    assert server.requests[3].method == "DELETE"
