"""Messages of a session: list, send (the reply as one answer), stream (the reply event by event), follow a
resumable reply again, and stop one; and versions: edit a message, regenerate an answer, show another version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

from .._http import AsyncTransport, Request, SyncTransport
from .._streams import AsyncReplyStream, ReplyStream
from .._types import AssistantReply, MessagePage, SessionWithMessages, StoredMessage
from ._paths import message_path, session_path

MessageType = Literal["text", "voice", "image"]


def _message_body(
    content: str,
    type: MessageType | None,
    language: str | None,
    resumable: bool | None,
    attachment_ids: Sequence[str] | None,
) -> dict[str, Any]:
    """A message of mine as sending and editing take it."""
    body: dict[str, Any] = {"role": "user", "content": content}
    if type is not None:
        body["type"] = type
    if language is not None:
        body["language"] = language
    if resumable is not None:
        body["resumable"] = resumable
    if attachment_ids is not None:
        if isinstance(attachment_ids, str):
            raise TypeError("attachment_ids is a list of attachment ids, not one id")
        body["attachmentIds"] = list(attachment_ids)
    return body


def _send(
    session_id: str,
    content: str,
    type: MessageType | None,
    language: str | None,
    resumable: bool | None,
    idempotency_key: str | None,
    stream: bool,
    attachment_ids: Sequence[str] | None = None,
) -> Request:
    return Request(
        "POST",
        f"{session_path(session_id)}/messages",
        body=_message_body(content, type, language, resumable, attachment_ids),
        accept="text/event-stream" if stream else "application/json",
        creates=True,
        idempotency_key=idempotency_key,
    )


def _edit(
    session_id: str,
    message_id: str,
    content: str,
    type: MessageType | None,
    language: str | None,
    resumable: bool | None,
    idempotency_key: str | None,
    stream: bool,
    attachment_ids: Sequence[str] | None = None,
) -> Request:
    # A new version of the message and a new reply: it creates, like sending.
    return Request(
        "POST",
        f"{message_path(session_id, message_id)}/edit",
        body=_message_body(content, type, language, resumable, attachment_ids),
        accept="text/event-stream" if stream else "application/json",
        creates=True,
        idempotency_key=idempotency_key,
    )


def _regenerate(
    session_id: str,
    message_id: str,
    language: str | None,
    resumable: bool | None,
    idempotency_key: str | None,
    stream: bool,
) -> Request:
    body: dict[str, Any] = {}
    if language is not None:
        body["language"] = language
    if resumable is not None:
        body["resumable"] = resumable
    return Request(
        "POST",
        f"{message_path(session_id, message_id)}/regenerate",
        body=body,
        accept="text/event-stream" if stream else "application/json",
        creates=True,
        idempotency_key=idempotency_key,
    )


def _select(session_id: str, message_id: str, limit: int | None) -> Request:
    # Showing the version that is already shown changes nothing: safe to repeat.
    return Request("POST", f"{message_path(session_id, message_id)}/select", query={"limit": limit}, idempotent=True)


def _list(session_id: str, limit: int | None, cursor: str | None) -> Request:
    return Request("GET", session_path(session_id), query={"limit": limit, "cursor": cursor})


def _page(session: Any) -> MessagePage:
    return {"messages": session["messages"], "nextCursor": session["nextCursor"]}


def _stop(session_id: str, message_id: str) -> Request:
    # Stopping a stopped reply changes nothing: safe to repeat.
    return Request("POST", f"{message_path(session_id, message_id)}/stop", idempotent=True)


def _resume(session_id: str, message_id: str) -> Request:
    return Request("GET", f"{message_path(session_id, message_id)}/stream", accept="text/event-stream")


class Messages:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def list(self, session_id: str, *, limit: int | None = None, cursor: str | None = None) -> MessagePage:
        """GET /api/chat/sessions/:id → one page of the session's messages (the newest page first)."""
        return _page(self._http.json(_list(session_id, limit, cursor)))

    def send(
        self,
        session_id: str,
        content: str,
        *,
        type: MessageType | None = None,
        language: str | None = None,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> AssistantReply:
        """POST /api/chat/sessions/:id/messages → the stored reply, once it is complete. ``language`` is a BCP 47
        tag (``tw``, ``fr-CI``) or ``auto`` (the default: detected). ``attachment_ids``: up to 4 ids of images and
        documents from ``attachments.upload`` (Pro and Enterprise), none sent in another session (409 otherwise)."""
        request = _send(session_id, content, type, language, None, idempotency_key, False, attachment_ids)
        return cast(AssistantReply, self._http.json(request))

    def stream(
        self,
        session_id: str,
        content: str,
        *,
        type: MessageType | None = None,
        language: str | None = None,
        resumable: bool = False,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> ReplyStream:
        """POST /api/chat/sessions/:id/messages with ``Accept: text/event-stream``. Returns once the reply has
        started (plan, ownership and validation errors are raised here); then read the stream.

        A ``resumable`` reply goes on being written when the connection drops: ``resume()`` follows it again,
        and only ``stop()`` stops it. Otherwise hanging up is the stop."""
        resumable_flag = resumable or None
        request = _send(session_id, content, type, language, resumable_flag, idempotency_key, True, attachment_ids)
        response = self._http.send(request, stream=True)
        return ReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    def resume(self, session_id: str, message_id: str) -> ReplyStream:
        """GET /api/chat/sessions/:id/messages/:messageId/stream: follows a reply (after a dropped connection, or
        from another process): the text so far as one token, then the rest as it is written, then done."""
        response = self._http.send(_resume(session_id, message_id), stream=True)
        return ReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    def edit(
        self,
        session_id: str,
        message_id: str,
        *,
        content: str,
        type: MessageType | None = None,
        language: str | None = None,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> AssistantReply:
        """POST /api/chat/sessions/:id/messages/:messageId/edit → the reply to the new text of one of my messages,
        once it is complete. The new text is a new version of that message, in its place (the user message's
        ``version`` counts it): the conversation goes on from it, and the old version and what followed it are kept
        (``select_version`` shows them again). ``attachment_ids`` left out keeps the edited message's attachments;
        ``[]`` drops them. Editing an answer is a 400 (regenerate it instead)."""
        request = _edit(session_id, message_id, content, type, language, None, idempotency_key, False, attachment_ids)
        return cast(AssistantReply, self._http.json(request))

    def edit_stream(
        self,
        session_id: str,
        message_id: str,
        *,
        content: str,
        type: MessageType | None = None,
        language: str | None = None,
        resumable: bool = False,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> ReplyStream:
        """POST .../messages/:messageId/edit with ``Accept: text/event-stream``: as ``edit``, with the reply streamed
        like ``stream``'s (the ``MetaEvent``'s ``user_message_id`` is the new version's id)."""
        resumable_flag = resumable or None
        request = _edit(
            session_id, message_id, content, type, language, resumable_flag, idempotency_key, True, attachment_ids
        )
        response = self._http.send(request, stream=True)
        return ReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    def regenerate(
        self,
        session_id: str,
        message_id: str,
        *,
        language: str | None = None,
        idempotency_key: str | None = None,
    ) -> AssistantReply:
        """POST /api/chat/sessions/:id/messages/:messageId/regenerate → a new answer to the question the answer
        ``message_id`` answered, once it is complete, with its ``version`` (e.g. ``{"index": 2, "count": 3}``); the
        earlier answers are kept as its versions. ``language`` left out: the question's own. Regenerating a message
        of mine is a 400 (edit it instead)."""
        request = _regenerate(session_id, message_id, language, None, idempotency_key, False)
        return cast(AssistantReply, self._http.json(request))

    def regenerate_stream(
        self,
        session_id: str,
        message_id: str,
        *,
        language: str | None = None,
        resumable: bool = False,
        idempotency_key: str | None = None,
    ) -> ReplyStream:
        """POST .../messages/:messageId/regenerate with ``Accept: text/event-stream``: as ``regenerate``, with the
        reply streamed like ``stream``'s."""
        request = _regenerate(session_id, message_id, language, resumable or None, idempotency_key, True)
        response = self._http.send(request, stream=True)
        return ReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    def select_version(self, session_id: str, message_id: str, *, limit: int | None = None) -> SessionWithMessages:
        """POST /api/chat/sessions/:id/messages/:messageId/select → shows this version of a message (any id of its
        ``version["siblingIds"]``): the conversation goes on from it, along the branch below it that was last shown,
        for every later read and reply. Answers the session with the newest page (``limit``) of that branch."""
        return cast(SessionWithMessages, self._http.json(_select(session_id, message_id, limit)))

    def stop(self, session_id: str, message_id: str) -> StoredMessage:
        """POST .../messages/:messageId/stop: stops a reply being written (a resumable one, too); what was written
        is kept, marked ``stopped``."""
        return cast(StoredMessage, self._http.json(_stop(session_id, message_id)))


class AsyncMessages:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def list(self, session_id: str, *, limit: int | None = None, cursor: str | None = None) -> MessagePage:
        """GET /api/chat/sessions/:id → one page of the session's messages (the newest page first)."""
        return _page(await self._http.json(_list(session_id, limit, cursor)))

    async def send(
        self,
        session_id: str,
        content: str,
        *,
        type: MessageType | None = None,
        language: str | None = None,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> AssistantReply:
        """POST /api/chat/sessions/:id/messages → the stored reply, once it is complete."""
        request = _send(session_id, content, type, language, None, idempotency_key, False, attachment_ids)
        return cast(AssistantReply, await self._http.json(request))

    async def stream(
        self,
        session_id: str,
        content: str,
        *,
        type: MessageType | None = None,
        language: str | None = None,
        resumable: bool = False,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncReplyStream:
        """POST /api/chat/sessions/:id/messages with ``Accept: text/event-stream``; read it with ``async for``."""
        resumable_flag = resumable or None
        request = _send(session_id, content, type, language, resumable_flag, idempotency_key, True, attachment_ids)
        response = await self._http.send(request, stream=True)
        return AsyncReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    async def resume(self, session_id: str, message_id: str) -> AsyncReplyStream:
        """GET .../messages/:messageId/stream: follows a reply again: the text so far, the rest, then done."""
        response = await self._http.send(_resume(session_id, message_id), stream=True)
        return AsyncReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    async def edit(
        self,
        session_id: str,
        message_id: str,
        *,
        content: str,
        type: MessageType | None = None,
        language: str | None = None,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> AssistantReply:
        """POST .../messages/:messageId/edit → the reply to the new text of one of my messages (a new version of it),
        once it is complete."""
        request = _edit(session_id, message_id, content, type, language, None, idempotency_key, False, attachment_ids)
        return cast(AssistantReply, await self._http.json(request))

    async def edit_stream(
        self,
        session_id: str,
        message_id: str,
        *,
        content: str,
        type: MessageType | None = None,
        language: str | None = None,
        resumable: bool = False,
        attachment_ids: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncReplyStream:
        """POST .../messages/:messageId/edit with ``Accept: text/event-stream``; read it with ``async for``."""
        resumable_flag = resumable or None
        request = _edit(
            session_id, message_id, content, type, language, resumable_flag, idempotency_key, True, attachment_ids
        )
        response = await self._http.send(request, stream=True)
        return AsyncReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    async def regenerate(
        self,
        session_id: str,
        message_id: str,
        *,
        language: str | None = None,
        idempotency_key: str | None = None,
    ) -> AssistantReply:
        """POST .../messages/:messageId/regenerate → a new version of an answer, once it is complete."""
        request = _regenerate(session_id, message_id, language, None, idempotency_key, False)
        return cast(AssistantReply, await self._http.json(request))

    async def regenerate_stream(
        self,
        session_id: str,
        message_id: str,
        *,
        language: str | None = None,
        resumable: bool = False,
        idempotency_key: str | None = None,
    ) -> AsyncReplyStream:
        """POST .../messages/:messageId/regenerate with ``Accept: text/event-stream``; read it with ``async for``."""
        request = _regenerate(session_id, message_id, language, resumable or None, idempotency_key, True)
        response = await self._http.send(request, stream=True)
        return AsyncReplyStream(response, self._http.base_url, lambda message_id: self.stop(session_id, message_id))

    async def select_version(
        self, session_id: str, message_id: str, *, limit: int | None = None
    ) -> SessionWithMessages:
        """POST .../messages/:messageId/select → shows this version of a message; the session with the newest page
        of the branch through it."""
        return cast(SessionWithMessages, await self._http.json(_select(session_id, message_id, limit)))

    async def stop(self, session_id: str, message_id: str) -> StoredMessage:
        """POST .../messages/:messageId/stop: stops a reply being written; what was written is kept."""
        return cast(StoredMessage, await self._http.json(_stop(session_id, message_id)))
