"""The caller's API keys. Managing keys needs an access token (sign in first): a key cannot manage keys."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast
from urllib.parse import quote

from .._http import AsyncTransport, Request, SyncTransport
from .._types import ApiKey, ApiKeyScope, CreatedApiKey

_LIST = Request("GET", "/api/developer/keys")


def _create(
    name: str,
    scopes: Sequence[ApiKeyScope] | None,
    expires_in_days: int | None,
    team: bool,
    idempotency_key: str | None,
) -> Request:
    body: dict[str, Any] = {"name": name}
    if scopes is not None:
        body["scopes"] = list(scopes)
    if expires_in_days is not None:
        body["expiresInDays"] = expires_in_days
    if team:
        body["team"] = True
    return Request("POST", "/api/developer/keys", body=body, creates=True, idempotency_key=idempotency_key)


def _revoke(key_id: str) -> Request:
    return Request("DELETE", f"/api/developer/keys/{quote(key_id, safe='')}")


class ApiKeys:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def list(self) -> list[ApiKey]:
        """GET /api/developer/keys → my keys, newest first, revoked ones included, masked."""
        return cast(list[ApiKey], self._http.json(_LIST)["keys"])

    def create(
        self,
        *,
        name: str,
        scopes: Sequence[ApiKeyScope] | None = None,
        expires_in_days: int | None = None,
        team: bool = False,
        idempotency_key: str | None = None,
    ) -> CreatedApiKey:
        """POST /api/developer/keys → ``{secret, key, message}``. ``secret`` is shown this once: store it now.
        Without ``scopes`` the key has every scope; without ``expires_in_days`` it never expires. With ``team=True``
        the key belongs to the caller's team (owners and admins only; ``key["teamId"]`` names it) and its calls count
        on the team's quota; anyone else gets a :class:`PermissionDeniedError`."""
        return cast(CreatedApiKey, self._http.json(_create(name, scopes, expires_in_days, team, idempotency_key)))

    def revoke(self, key_id: str) -> None:
        """DELETE /api/developer/keys/:id: the key stops working (revoking it again is fine)."""
        self._http.send(_revoke(key_id))


class AsyncApiKeys:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def list(self) -> list[ApiKey]:
        """GET /api/developer/keys → my keys, newest first, revoked ones included, masked."""
        return cast(list[ApiKey], (await self._http.json(_LIST))["keys"])

    async def create(
        self,
        *,
        name: str,
        scopes: Sequence[ApiKeyScope] | None = None,
        expires_in_days: int | None = None,
        team: bool = False,
        idempotency_key: str | None = None,
    ) -> CreatedApiKey:
        """POST /api/developer/keys → ``{secret, key, message}``. ``secret`` is shown this once: store it now. With
        ``team=True`` the key belongs to the caller's team (owners and admins only)."""
        return cast(
            CreatedApiKey, await self._http.json(_create(name, scopes, expires_in_days, team, idempotency_key))
        )

    async def revoke(self, key_id: str) -> None:
        """DELETE /api/developer/keys/:id: the key stops working (revoking it again is fine)."""
        await self._http.send(_revoke(key_id))
