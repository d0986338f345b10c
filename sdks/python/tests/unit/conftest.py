from __future__ import annotations

from collections.abc import Iterator

import pytest

from local_server import LocalServer


@pytest.fixture
def server() -> Iterator[LocalServer]:
    local = LocalServer().start()
    yield local
    local.stop()


@pytest.fixture(autouse=True)
def no_kasa_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The integration run sets KASA_BASE_URL: unit tests say where their server is themselves.
    monkeypatch.delenv("KASA_BASE_URL", raising=False)
    monkeypatch.delenv("KASA_API_KEY", raising=False)
