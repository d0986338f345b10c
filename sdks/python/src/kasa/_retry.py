"""When the client tries a call again, and how long it waits first: bounded, and never longer than a caller is
willing to wait."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._errors import KasaError

#: Statuses worth another try: too many requests, and a gateway or service that is away for now.
RETRY_STATUSES = frozenset({429, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """How the client retries."""

    #: Retries after the first attempt. 0 turns retrying off.
    max_retries: int = 2
    #: The longest single wait, in seconds. An answer asking for longer (a monthly quota that is used up, say) is
    #: raised at once: waiting hours inside a call is rarely what a caller wants.
    max_retry_delay: float = 60.0
    #: The first back-off when the answer names no wait; it doubles with each attempt, with jitter.
    base_delay: float = 0.5
    #: The longest back-off the doubling reaches.
    max_backoff: float = 8.0


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait: delta-seconds or an HTTP date. None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        seconds = None
    if seconds is not None:
        # "-1", "nan" or "inf" are not waits anyone meant.
        return seconds if 0 <= seconds < float("inf") else None
    try:
        # Since Python 3.10 an unreadable date raises ValueError (it used to give None).
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait an answer asks for: ``retry-after-ms`` (finer, when a server sends it), else ``Retry-After``."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000
            if 0 <= value < float("inf"):
                return value
        except ValueError:
            pass
    return parse_retry_after(headers.get("retry-after"), now)


def backoff_delay(attempt: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """Exponential back-off with jitter for the ``attempt``-th retry (0-based): between half and all of
    ``base_delay * 2**attempt`` (capped), so that many clients refused at once do not come back at once."""
    ceiling = min(policy.max_backoff, policy.max_retry_delay, policy.base_delay * 2**attempt)
    return ceiling / 2 + rand() * ceiling / 2


def retry_delay(
    error: KasaError,
    attempt: int,
    policy: RetryPolicy,
    *,
    retryable_call: bool,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before trying again after ``error`` (the ``attempt``-th failure, 0-based), or None to raise it.

    Only calls that are safe to repeat are retried: idempotent ones (GET, PUT, DELETE and the like) and those sent
    with an ``Idempotency-Key``. Of those, a failure to connect or a dropped connection, a 429 and a 502, 503 or
    504 are retried; never a used-up monthly quota, an answer marked ``x-should-retry: false``, or one whose
    ``Retry-After`` is longer than ``policy.max_retry_delay``.
    """
    if attempt >= policy.max_retries or not retryable_call:
        return None
    should_retry = (error.headers.get("x-should-retry") or "").strip().lower()
    if should_retry == "false":
        return None
    if should_retry != "true":
        if error.status != 0 and error.status not in RETRY_STATUSES:
            return None
        if error.code == "quota_exceeded":
            return None
    asked = retry_after_seconds(error.headers) if error.status != 0 else None
    wait = asked if asked is not None else backoff_delay(attempt, policy, rand)
    return wait if wait <= policy.max_retry_delay else None
