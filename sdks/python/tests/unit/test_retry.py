"""The retry policy: which failures are tried again, how long the client waits, and when it gives up at once."""

from __future__ import annotations

import asyncio
import time
from email.utils import formatdate

import pytest

import kasa
from kasa import AsyncKasa, Kasa, KasaError, RetryPolicy, parse_retry_after
from kasa._retry import backoff_delay, retry_delay
from local_server import LocalServer, Reply

# Back-off in milliseconds, so that the tests wait for nothing they do not need to.
FAST = RetryPolicy(max_retries=2, max_retry_delay=60.0, base_delay=0.01, max_backoff=0.05)
LANGUAGES: dict[str, object] = {"count": 0, "languages": []}
SESSION = {"id": "s1", "personaId": "kasa", "title": "Hi", "createdAt": "2026-11-24T00:00:00.000Z"}


def unavailable(**headers: str) -> Reply:
    return Reply(503, headers=headers, body={"message": "Chat service is unavailable", "code": "upstream_unavailable"})


def client(server: LocalServer, policy: RetryPolicy = FAST, **options: object) -> Kasa:
    return Kasa(base_url=server.base_url, retry_policy=policy, **options)  # type: ignore[arg-type]


def error(status: int, code: str = "x", **headers: str) -> KasaError:
    return KasaError("failed", status=status, code=code, headers=headers)


class TestParseRetryAfter:
    def test_reads_delta_seconds(self) -> None:
        assert parse_retry_after("5") == 5
        assert parse_retry_after(" 1.5 ") == 1.5

    def test_reads_an_http_date_relative_to_now(self) -> None:
        now = time.time()
        in_30_seconds = parse_retry_after(formatdate(now + 30, usegmt=True), now=now)
        assert in_30_seconds is not None and 29 <= in_30_seconds <= 30
        assert parse_retry_after(formatdate(now - 30, usegmt=True), now=now) == 0

    @pytest.mark.parametrize("value", [None, "", "soon", "-1", "nan", "inf", "Wed, 99 Foo"])
    def test_ignores_what_is_not_a_wait(self, value: str | None) -> None:
        assert parse_retry_after(value) is None


class TestBackoff:
    def test_doubles_with_each_attempt_between_half_and_all_of_the_ceiling(self) -> None:
        policy = RetryPolicy(base_delay=0.5, max_backoff=8.0)
        assert [backoff_delay(n, policy, lambda: 0.0) for n in range(6)] == [0.25, 0.5, 1.0, 2.0, 4.0, 4.0]
        assert [backoff_delay(n, policy, lambda: 1.0) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]

    def test_jitters_so_that_clients_refused_together_do_not_return_together(self) -> None:
        waits = {backoff_delay(3, RetryPolicy()) for _ in range(20)}
        assert len(waits) > 1
        assert all(2.0 <= wait <= 4.0 for wait in waits)


class TestRetryDelay:
    def test_retries_429_502_503_504_and_connection_failures_of_a_retryable_call(self) -> None:
        for failure in (error(429), error(502), error(503), error(504), error(0, "network_error")):
            assert retry_delay(failure, 0, FAST, retryable_call=True) is not None
            assert retry_delay(failure, 0, FAST, retryable_call=False) is None

    def test_does_not_retry_other_failures(self) -> None:
        for status in (400, 401, 403, 404, 409, 500):
            assert retry_delay(error(status), 0, FAST, retryable_call=True) is None

    def test_waits_what_retry_after_asks_within_the_longest_wait(self) -> None:
        assert retry_delay(error(429, **{"retry-after": "3"}), 0, FAST, retryable_call=True) == 3
        assert retry_delay(error(503, **{"retry-after-ms": "250"}), 0, FAST, retryable_call=True) == 0.25
        assert retry_delay(error(429, **{"retry-after": "259200"}), 0, FAST, retryable_call=True) is None

    def test_never_retries_a_used_up_monthly_quota_or_an_answer_marked_not_retryable(self) -> None:
        assert retry_delay(error(429, "quota_exceeded", **{"retry-after": "1"}), 0, FAST, retryable_call=True) is None
        assert retry_delay(error(503, **{"x-should-retry": "false"}), 0, FAST, retryable_call=True) is None

    def test_retries_what_the_answer_marks_retryable(self) -> None:
        assert retry_delay(error(500, **{"x-should-retry": "true"}), 0, FAST, retryable_call=True) is not None

    def test_stops_after_max_retries(self) -> None:
        assert retry_delay(error(503), 1, FAST, retryable_call=True) is not None
        assert retry_delay(error(503), 2, FAST, retryable_call=True) is None


def test_retries_a_get_after_503_and_returns_the_answer(server: LocalServer) -> None:
    server.replies = [unavailable(**{"Retry-After": "0"}), Reply(body=LANGUAGES)]
    assert client(server).languages.list() == LANGUAGES
    assert len(server.requests) == 2


def test_retries_a_get_whose_connection_dropped(server: LocalServer) -> None:
    server.replies = [Reply(hang_up=True), Reply(body=LANGUAGES)]
    assert client(server).languages.list() == LANGUAGES
    assert len(server.requests) == 2


def test_retries_a_timed_out_get(server: LocalServer) -> None:
    server.replies = [Reply(body=LANGUAGES, delay=0.5), Reply(body=LANGUAGES)]
    assert client(server, timeout=0.2).languages.list() == LANGUAGES
    assert len(server.requests) == 2


def test_waits_the_retry_after_a_429_names(server: LocalServer) -> None:
    server.replies = [
        Reply(429, headers={"Retry-After": "1"}, body={"message": "Slow down", "code": "rate_limited"}),
        Reply(body=LANGUAGES),
    ]
    started = time.monotonic()
    assert client(server).languages.list() == LANGUAGES
    assert time.monotonic() - started >= 0.95


@pytest.fixture
def no_long_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails a test at once when the client would sleep for long, instead of hanging the run for days."""
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        assert seconds <= 2, f"the client was about to wait {seconds} s"
        real_sleep(seconds)

    monkeypatch.setattr("kasa._http.time.sleep", sleep)


@pytest.mark.usefixtures("no_long_waits")
def test_raises_at_once_when_retry_after_is_days_away(server: LocalServer) -> None:
    server.replies = [Reply(429, headers={"Retry-After": "259200"}, body={"message": "Later", "code": "rate_limited"})]
    started = time.monotonic()
    with pytest.raises(kasa.RateLimitError) as raised:
        client(server).languages.list()
    assert time.monotonic() - started < 1
    assert raised.value.retry_after == 259200
    assert len(server.requests) == 1


@pytest.mark.usefixtures("no_long_waits")
def test_raises_a_used_up_monthly_quota_at_once(server: LocalServer) -> None:
    body = {"message": "Your plan's 1,000 calls this month are used", "code": "quota_exceeded"}
    server.replies = [Reply(429, headers={"Retry-After": "1"}, body=body)]
    with pytest.raises(kasa.RateLimitError):
        client(server).languages.list()
    assert len(server.requests) == 1


def test_does_not_retry_an_answer_marked_x_should_retry_false(server: LocalServer) -> None:
    server.replies = [unavailable(**{"x-should-retry": "false"}), Reply(body=LANGUAGES)]
    with pytest.raises(kasa.ServiceUnavailableError):
        client(server).languages.list()
    assert len(server.requests) == 1


def test_gives_up_after_max_retries_with_the_last_error(server: LocalServer) -> None:
    server.replies = [unavailable()]
    with pytest.raises(kasa.ServiceUnavailableError):
        client(server).languages.list()
    assert len(server.requests) == 3


def test_max_retries_0_turns_retrying_off(server: LocalServer) -> None:
    server.replies = [unavailable(), Reply(body=LANGUAGES)]
    with pytest.raises(kasa.ServiceUnavailableError):
        client(server).with_options(max_retries=0).languages.list()
    assert len(server.requests) == 1


def test_retries_a_creating_post_with_the_same_idempotency_key(server: LocalServer) -> None:
    server.replies = [unavailable(), Reply(201, body=SESSION)]
    assert client(server).chat.sessions.create(persona_id="kasa", title="Hi") == SESSION
    keys = [request.headers.get("idempotency-key") for request in server.requests]
    assert len(keys) == 2 and keys[0] is not None and keys[0] == keys[1]


def test_sends_a_new_idempotency_key_for_each_call(server: LocalServer) -> None:
    server.replies = [Reply(201, body=SESSION)]
    kasa_client = client(server)
    kasa_client.chat.sessions.create(persona_id="kasa", title="One")
    kasa_client.chat.sessions.create(persona_id="kasa", title="Two")
    first, second = (request.headers["idempotency-key"] for request in server.requests)
    assert first != second


def test_sends_the_callers_own_idempotency_key(server: LocalServer) -> None:
    server.replies = [Reply(201, body=SESSION)]
    client(server, idempotency_keys=False).chat.sessions.create(persona_id="kasa", title="Hi", idempotency_key="k-1")
    assert server.requests[0].headers["idempotency-key"] == "k-1"


def test_does_not_retry_a_post_sent_without_an_idempotency_key(server: LocalServer) -> None:
    server.replies = [unavailable(), Reply(201, body=SESSION)]
    with pytest.raises(kasa.ServiceUnavailableError):
        client(server, idempotency_keys=False).chat.sessions.create(persona_id="kasa", title="Hi")
    assert len(server.requests) == 1
    assert "idempotency-key" not in server.requests[0].headers


def test_does_not_retry_a_post_whose_connection_dropped_without_an_idempotency_key(server: LocalServer) -> None:
    server.replies = [Reply(hang_up=True), Reply(201, body=SESSION)]
    with pytest.raises(kasa.KasaConnectionError):
        client(server, idempotency_keys=False).chat.sessions.create(persona_id="kasa", title="Hi")
    assert len(server.requests) == 1


def test_retries_a_post_that_is_safe_to_repeat_by_nature(server: LocalServer) -> None:
    detected: dict[str, object] = {"language": "fr", "name": "French", "confidence": 0.9, "alternatives": []}
    server.replies = [unavailable(), Reply(body=detected)]
    assert client(server, idempotency_keys=False).languages.detect("Bonjour à tous") == detected
    assert len(server.requests) == 2


def test_the_async_client_retries_the_same_way(server: LocalServer) -> None:
    server.replies = [
        Reply(429, headers={"Retry-After": "0"}, body={"message": "Slow down", "code": "rate_limited"}),
        unavailable(),
        Reply(body=LANGUAGES),
    ]

    async def call() -> object:
        async with AsyncKasa(base_url=server.base_url, retry_policy=FAST) as kasa_client:
            return await kasa_client.languages.list()

    assert asyncio.run(call()) == LANGUAGES
    assert len(server.requests) == 3


def test_the_async_client_gives_up_on_a_quota_at_once(server: LocalServer) -> None:
    server.replies = [Reply(429, headers={"Retry-After": "5"}, body={"message": "Used up", "code": "quota_exceeded"})]

    async def call() -> object:
        async with AsyncKasa(base_url=server.base_url, retry_policy=FAST) as kasa_client:
            return await kasa_client.personas.list()

    with pytest.raises(kasa.RateLimitError):
        asyncio.run(call())
    assert len(server.requests) == 1
