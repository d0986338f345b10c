"""Chat sessions (conversations with one persona), and their read-only links. Only their owner sees them: anyone
else gets a 404."""

from __future__ import annotations

from typing import cast
from urllib.parse import quote

from .._http import AsyncTransport, Request, SyncTransport
from .._types import ConversationShare, Session, SessionPage, SessionWithMessages, SharedConversation
from ._paths import session_path


def _create(persona_id: str, title: str, idempotency_key: str | None) -> Request:
    body = {"personaId": persona_id, "title": title}
    return Request("POST", "/api/chat/sessions", body=body, creates=True, idempotency_key=idempotency_key)


def _list(limit: int | None, cursor: str | None) -> Request:
    return Request("GET", "/api/chat/sessions", query={"limit": limit, "cursor": cursor})


def _get(session_id: str, limit: int | None, cursor: str | None) -> Request:
    return Request("GET", session_path(session_id), query={"limit": limit, "cursor": cursor})


def _rename(session_id: str, title: str) -> Request:
    # Setting the same title twice is the same as once.
    return Request("PATCH", session_path(session_id), body={"title": title}, idempotent=True)


def _delete(session_id: str) -> Request:
    return Request("DELETE", session_path(session_id))


def _share(session_id: str) -> Request:
    # Sharing again keeps the link and only brings it up to date: safe to repeat.
    return Request("POST", f"{session_path(session_id)}/share", idempotent=True)


def _get_share(session_id: str) -> Request:
    return Request("GET", f"{session_path(session_id)}/share")


def _stop_sharing(session_id: str) -> Request:
    return Request("DELETE", f"{session_path(session_id)}/share")


def _read_shared(token: str) -> Request:
    # The token is the only secret the page needs: no credential is sent along.
    return Request("GET", f"/api/chat/shared/{quote(token, safe='')}", authenticated=False)


class Sessions:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def create(self, *, persona_id: str, title: str, idempotency_key: str | None = None) -> Session:
        """POST /api/chat/sessions → the new session; an unknown persona is a 400."""
        return cast(Session, self._http.json(_create(persona_id, title, idempotency_key)))

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> SessionPage:
        """GET /api/chat/sessions → one page of my sessions (at most 50), newest first."""
        return cast(SessionPage, self._http.json(_list(limit, cursor)))

    def get(self, session_id: str, *, limit: int | None = None, cursor: str | None = None) -> SessionWithMessages:
        """GET /api/chat/sessions/:id → the session and its newest page of messages."""
        return cast(SessionWithMessages, self._http.json(_get(session_id, limit, cursor)))

    def rename(self, session_id: str, title: str) -> Session:
        """PATCH /api/chat/sessions/:id → the renamed session."""
        return cast(Session, self._http.json(_rename(session_id, title)))

    def delete(self, session_id: str) -> None:
        """DELETE /api/chat/sessions/:id: the session and its messages."""
        self._http.send(_delete(session_id))

    def share(self, session_id: str) -> ConversationShare:
        """POST /api/chat/sessions/:id/share → a read-only link to the conversation as it is now. Sharing again keeps
        the link and brings it up to date; a conversation without messages is a 400."""
        return cast(ConversationShare, self._http.json(_share(session_id)))

    def get_share(self, session_id: str) -> ConversationShare:
        """GET /api/chat/sessions/:id/share → the conversation's link; a 404 when it is not shared."""
        return cast(ConversationShare, self._http.json(_get_share(session_id)))

    def stop_sharing(self, session_id: str) -> None:
        """DELETE /api/chat/sessions/:id/share: the link answers 404 from then on (stopping again is fine)."""
        self._http.send(_stop_sharing(session_id))

    def read_shared(self, token: str) -> SharedConversation:
        """GET /api/chat/shared/:token → a conversation someone shared, read without an account (no credential is
        sent); a 404 once they stop sharing it."""
        return cast(SharedConversation, self._http.json(_read_shared(token)))


class AsyncSessions:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def create(self, *, persona_id: str, title: str, idempotency_key: str | None = None) -> Session:
        """POST /api/chat/sessions → the new session; an unknown persona is a 400."""
        return cast(Session, await self._http.json(_create(persona_id, title, idempotency_key)))

    async def list(self, *, limit: int | None = None, cursor: str | None = None) -> SessionPage:
        """GET /api/chat/sessions → one page of my sessions (at most 50), newest first."""
        return cast(SessionPage, await self._http.json(_list(limit, cursor)))

    async def get(
        self, session_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> SessionWithMessages:
        """GET /api/chat/sessions/:id → the session and its newest page of messages."""
        return cast(SessionWithMessages, await self._http.json(_get(session_id, limit, cursor)))

    async def rename(self, session_id: str, title: str) -> Session:
        """PATCH /api/chat/sessions/:id → the renamed session."""
        return cast(Session, await self._http.json(_rename(session_id, title)))

    async def delete(self, session_id: str) -> None:
        """DELETE /api/chat/sessions/:id: the session and its messages."""
        await self._http.send(_delete(session_id))

    async def share(self, session_id: str) -> ConversationShare:
        """POST /api/chat/sessions/:id/share → a read-only link to the conversation as it is now (the same link
        when shared before, brought up to date)."""
        return cast(ConversationShare, await self._http.json(_share(session_id)))

    async def get_share(self, session_id: str) -> ConversationShare:
        """GET /api/chat/sessions/:id/share → the conversation's link; a 404 when it is not shared."""
        return cast(ConversationShare, await self._http.json(_get_share(session_id)))

    async def stop_sharing(self, session_id: str) -> None:
        """DELETE /api/chat/sessions/:id/share: the link answers 404 from then on."""
        await self._http.send(_stop_sharing(session_id))

    async def read_shared(self, token: str) -> SharedConversation:
        """GET /api/chat/shared/:token → a conversation someone shared, read without an account."""
        return cast(SharedConversation, await self._http.json(_read_shared(token)))
