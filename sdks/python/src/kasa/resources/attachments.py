"""Images and documents to send with chat messages (Pro and Enterprise): upload, read back, delete."""

from __future__ import annotations

import re
from typing import cast
from urllib.parse import quote, unquote

import httpx

from .._http import AsyncTransport, Request, SyncTransport
from .._types import Attachment

_PATH = "/api/chat/attachments"


class AttachmentFile(bytes):
    """A stored attachment's bytes (or its preview's), with its ``media_type`` (``image/png``,
    ``application/pdf``...) and the file ``name`` the API gave it (None when it gave none)."""

    media_type: str
    name: str | None

    def __new__(cls, content: bytes, media_type: str, name: str | None) -> AttachmentFile:
        file = super().__new__(cls, content)
        file.media_type = media_type
        file.name = name
        return file


def _attachment_path(attachment_id: str) -> str:
    return f"{_PATH}/{quote(attachment_id, safe='')}"


def _bytes_of(data: object) -> bytes:
    """The body to upload. Callers without a type checker may pass a str or an open file: refused here, before
    anything is sent."""
    if isinstance(data, memoryview):
        return data.tobytes()
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    raise TypeError("attachments.upload takes the file's bytes (bytes, bytearray or memoryview)")


def _upload(
    data: bytes | bytearray | memoryview, name: str, content_type: str | None, idempotency_key: str | None
) -> Request:
    content = _bytes_of(data)
    if not name.strip():
        raise ValueError('attachments.upload needs the file name, e.g. name="photo.png"')
    # The declared type is only a hint: the API decides what the file is from its bytes.
    return Request(
        "POST",
        _PATH,
        query={"name": name},
        content=content,
        content_type=content_type or "application/octet-stream",
        creates=True,
        idempotency_key=idempotency_key,
    )


def _file_request(path: str) -> Request:
    return Request("GET", path, accept="*/*")


def _file_name(disposition: str | None) -> str | None:
    """The file name of a Content-Disposition header: RFC 5987's exact ``filename*`` first, else ``filename``."""
    if not disposition:
        return None
    encoded = re.search(r"filename\*\s*=\s*UTF-8''([^;]+)", disposition, re.IGNORECASE)
    if encoded:
        return unquote(encoded.group(1).strip(), errors="strict")
    plain = re.search(r'filename\s*=\s*"([^"]*)"', disposition, re.IGNORECASE) or re.search(
        r"filename\s*=\s*([^;]+)", disposition, re.IGNORECASE
    )
    return plain.group(1).strip() if plain else None


def _file(response: httpx.Response) -> AttachmentFile:
    media_type = response.headers.get("content-type", "application/octet-stream").split(";")[0].strip().lower()
    try:
        name = _file_name(response.headers.get("content-disposition"))
    except UnicodeDecodeError:
        name = None
    return AttachmentFile(response.content, media_type, name)


class Attachments:
    """Images (PNG, JPEG, WebP, GIF; up to 10 MB) and documents (PDF, DOCX, plain text, markdown; up to 20 MB) to
    send with messages: upload one, then pass its id in ``attachment_ids`` of ``chat.messages.send`` or ``stream``.
    A Free account gets a ``PermissionDeniedError``; another type an ``UnsupportedMediaTypeError`` (415); a file over
    its kind's limit a ``PayloadTooLargeError`` (413); an account that keeps as many as it may (200 files, 500 MB) a
    ``ConflictError`` (409). Only their owner can read or delete them."""

    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def upload(
        self,
        data: bytes | bytearray | memoryview,
        *,
        name: str,
        content_type: str | None = None,
        idempotency_key: str | None = None,
    ) -> Attachment:
        """POST /api/chat/attachments?name= with the bytes as the body → the stored attachment."""
        return cast(Attachment, self._http.json(_upload(data, name, content_type, idempotency_key)))

    def get(self, attachment_id: str) -> AttachmentFile:
        """GET /api/chat/attachments/:id → the file (``bytes`` with ``media_type`` and ``name``); 404 for
        someone else's or a deleted one."""
        return _file(self._http.send(_file_request(_attachment_path(attachment_id))))

    def thumbnail(self, attachment_id: str) -> AttachmentFile:
        """GET /api/chat/attachments/:id/thumbnail → an image's small WebP preview (404 for a document)."""
        return _file(self._http.send(_file_request(f"{_attachment_path(attachment_id)}/thumbnail")))

    def delete(self, attachment_id: str) -> None:
        """DELETE /api/chat/attachments/:id: deletes the file and frees its place in the account's allowance."""
        self._http.send(Request("DELETE", _attachment_path(attachment_id)))


class AsyncAttachments:
    """``Attachments`` for ``AsyncKasa``."""

    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def upload(
        self,
        data: bytes | bytearray | memoryview,
        *,
        name: str,
        content_type: str | None = None,
        idempotency_key: str | None = None,
    ) -> Attachment:
        """POST /api/chat/attachments?name= with the bytes as the body → the stored attachment."""
        return cast(Attachment, await self._http.json(_upload(data, name, content_type, idempotency_key)))

    async def get(self, attachment_id: str) -> AttachmentFile:
        """GET /api/chat/attachments/:id → the file (``bytes`` with ``media_type`` and ``name``)."""
        return _file(await self._http.send(_file_request(_attachment_path(attachment_id))))

    async def thumbnail(self, attachment_id: str) -> AttachmentFile:
        """GET /api/chat/attachments/:id/thumbnail → an image's small WebP preview (404 for a document)."""
        return _file(await self._http.send(_file_request(f"{_attachment_path(attachment_id)}/thumbnail")))

    async def delete(self, attachment_id: str) -> None:
        """DELETE /api/chat/attachments/:id: deletes the file and frees its place in the account's allowance."""
        await self._http.send(Request("DELETE", _attachment_path(attachment_id)))
