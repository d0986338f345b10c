"""Chat sessions (conversations with one persona). Only their owner sees them: anyone else gets a 404."""

from __future__ import annotations

from typing import cast

from .._http import AsyncTransport, Request, SyncTransport
from .._types import Session, SessionPage, SessionWithMessages
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
