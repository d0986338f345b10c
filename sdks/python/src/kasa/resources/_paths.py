"""Paths of the chat API, with ids escaped (an id is never allowed to reach another route)."""

from __future__ import annotations

from urllib.parse import quote


def session_path(session_id: str) -> str:
    return f"/api/chat/sessions/{quote(session_id, safe='')}"


def message_path(session_id: str, message_id: str) -> str:
    return f"{session_path(session_id)}/messages/{quote(message_id, safe='')}"
