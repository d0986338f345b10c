"""What the integration tests share: the platform's address (KASA_BASE_URL, set by sdks/python/python.test.ts,
which starts the built platform), the fake AI provider's controls (KASA_FAKE_PROVIDER_URL), the plan control
(KASA_PLAN_CONTROL_URL: Enterprise is sold by the sales team, not the checkout), new people, and a way to wait for a
state."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import httpx

T = TypeVar("T")

DEFAULT_TEXT = "Hello from the fake provider."


def required_env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        # Not a skip: run through the jest suite (npx jest sdks/python), which starts the platform and sets these.
        raise RuntimeError(f"{name} is not set: run these tests with `npx jest sdks/python` against the built platform")
    return value


class FakeProvider:
    """The fake OpenAI-compatible provider the platform's chat service calls."""

    def __init__(self, control_url: str) -> None:
        self._http = httpx.Client(base_url=control_url, timeout=10)

    def answer(self, text: str, delay_ms: int = 0) -> None:
        """Streams ``text`` word by word, ``delay_ms`` apart."""
        self._set({"kind": "ok", "text": text, "delayMs": delay_ms})

    def endless(self, interval_ms: int = 20) -> None:
        """Streams ``w1 ``, ``w2 ``... until the platform hangs up."""
        self._set({"kind": "endless", "intervalMs": interval_ms})

    def last_request(self) -> dict[str, Any]:
        response = self._http.get("/requests/last")
        response.raise_for_status()
        return dict(response.json())

    def _set(self, mode: dict[str, Any]) -> None:
        self._http.put("/mode", json=mode).raise_for_status()


def set_plan(control_url: str, email: str, plan: str) -> None:
    """Moves an account to ``plan`` in auth's database; a new sign-in then carries it."""
    response = httpx.put(f"{control_url}/plan", json={"email": email, "plan": plan}, timeout=10)
    assert response.status_code == 200, f"the plan control answered {response.status_code}: {response.text}"


def new_person() -> dict[str, str]:
    run = uuid.uuid4().hex[:8]
    return {"username": f"kofi_{run}", "email": f"kofi.{run}@example.com", "password": "adinkra-sika"}


def eventually(check: Callable[[], T | None], *, what: str, timeout: float = 10.0, interval: float = 0.1) -> T:
    """Waits for ``check`` to give something (not None, not False) and gives it; fails naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)
