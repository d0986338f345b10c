"""Where an IP address appears to be (the caller's own by default)."""

from __future__ import annotations

from typing import cast

from .._http import AsyncTransport, Request, SyncTransport
from .._types import GeoLookup


def _lookup(ip: str | None) -> Request:
    return Request("GET", "/api/geo", query={"ip": ip})


class Geo:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def lookup(self, ip: str | None = None) -> GeoLookup:
        """GET /api/geo → country, region, city, time zone, currency and the languages spoken there."""
        return cast(GeoLookup, self._http.json(_lookup(ip)))


class AsyncGeo:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def lookup(self, ip: str | None = None) -> GeoLookup:
        """GET /api/geo → country, region, city, time zone, currency and the languages spoken there."""
        return cast(GeoLookup, await self._http.json(_lookup(ip)))
