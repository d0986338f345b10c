"""Accounts: sign up, sign in, who am I, sign out. Signing in makes the client send the new token."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from .._http import AsyncTransport, Request, SyncTransport
from .._types import AuthResponse, MeUser


def _register(username: str, email: str, password: str) -> Request:
    body = {"username": username, "email": email, "password": password}
    return Request("POST", "/api/auth/register", body=body, creates=True)


def _login(email: str, password: str) -> Request:
    # Signing in twice only issues a second token: safe to retry.
    return Request("POST", "/api/auth/login", body={"email": email, "password": password}, idempotent=True)


_ME = Request("GET", "/api/auth/me")
# Revoking a token twice is the same as once.
_LOGOUT = Request("POST", "/api/auth/logout", idempotent=True)


class Auth:
    def __init__(self, http: SyncTransport, use_token: Callable[[str | None], None]) -> None:
        self._http = http
        self._use_token = use_token

    def register(self, *, username: str, email: str, password: str) -> AuthResponse:
        """POST /api/auth/register → ``{success, token, user, message}``; later calls send ``token``."""
        response = cast(AuthResponse, self._http.json(_register(username, email, password)))
        self._use_token(response["token"])
        return response

    def login(self, *, email: str, password: str) -> AuthResponse:
        """POST /api/auth/login → ``{success, token, user, message}``; later calls send ``token``."""
        response = cast(AuthResponse, self._http.json(_login(email, password)))
        self._use_token(response["token"])
        return response

    def me(self) -> MeUser:
        """GET /api/auth/me → the signed-in user and whether they are an operator (needs an access token)."""
        return cast(MeUser, self._http.json(_ME)["user"])

    def logout(self) -> None:
        """POST /api/auth/logout: revokes the token on the server; the client forgets it whatever the answer."""
        try:
            self._http.json(_LOGOUT)
        finally:
            self._use_token(None)


class AsyncAuth:
    def __init__(self, http: AsyncTransport, use_token: Callable[[str | None], None]) -> None:
        self._http = http
        self._use_token = use_token

    async def register(self, *, username: str, email: str, password: str) -> AuthResponse:
        """POST /api/auth/register → ``{success, token, user, message}``; later calls send ``token``."""
        response = cast(AuthResponse, await self._http.json(_register(username, email, password)))
        self._use_token(response["token"])
        return response

    async def login(self, *, email: str, password: str) -> AuthResponse:
        """POST /api/auth/login → ``{success, token, user, message}``; later calls send ``token``."""
        response = cast(AuthResponse, await self._http.json(_login(email, password)))
        self._use_token(response["token"])
        return response

    async def me(self) -> MeUser:
        """GET /api/auth/me → the signed-in user and whether they are an operator (needs an access token)."""
        return cast(MeUser, (await self._http.json(_ME))["user"])

    async def logout(self) -> None:
        """POST /api/auth/logout: revokes the token on the server; the client forgets it whatever the answer."""
        try:
            await self._http.json(_LOGOUT)
        finally:
            self._use_token(None)
