"""Kasa's chat: sessions with a persona, and their messages (sent whole or streamed)."""

from __future__ import annotations

from .._http import AsyncTransport, SyncTransport
from .messages import AsyncMessages, Messages
from .sessions import AsyncSessions, Sessions


class Chat:
    def __init__(self, http: SyncTransport) -> None:
        self.sessions = Sessions(http)
        self.messages = Messages(http)


class AsyncChat:
    def __init__(self, http: AsyncTransport) -> None:
        self.sessions = AsyncSessions(http)
        self.messages = AsyncMessages(http)
