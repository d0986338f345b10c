"""The personas to chat with: Kasa's six, then (signed in) the caller's own custom ones."""

from __future__ import annotations

from typing import cast

from .._http import AsyncTransport, Request, SyncTransport
from .._types import Persona

_LIST = Request("GET", "/api/personas")


class Personas:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def list(self) -> list[Persona]:
        """GET /api/personas."""
        return cast(list[Persona], self._http.json(_LIST))


class AsyncPersonas:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def list(self) -> list[Persona]:
        """GET /api/personas."""
        return cast(list[Persona], await self._http.json(_LIST))
