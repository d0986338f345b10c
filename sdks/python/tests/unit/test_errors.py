"""Every failure of a call becomes a KasaError of the class that names it, carrying what Kasa's error body said."""

from __future__ import annotations

import pytest

import kasa
from kasa import Kasa, KasaError
from local_server import LocalServer, Reply, unused_port


def client(server: LocalServer, **options: object) -> Kasa:
    return Kasa(base_url=server.base_url, max_retries=0, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "validation_failed", kasa.BadRequestError),
        (401, "unauthenticated", kasa.AuthenticationError),
        (403, "forbidden", kasa.PermissionDeniedError),
        (404, "not_found", kasa.NotFoundError),
        (409, "conflict", kasa.ConflictError),
        (413, "payload_too_large", kasa.PayloadTooLargeError),
        (415, "unsupported_media_type", kasa.UnsupportedMediaTypeError),
        (429, "rate_limited", kasa.RateLimitError),
        (500, "internal_error", kasa.ServerError),
        (503, "upstream_unavailable", kasa.ServiceUnavailableError),
        (504, "upstream_timeout", kasa.ServiceUnavailableError),
    ],
)
def test_maps_each_status_to_its_error_class_with_the_body_fields(
    server: LocalServer, status: int, code: str, cls: type[KasaError]
) -> None:
    body = {"message": f"It failed with {status}", "code": code, "requestId": "req-123", "details": [{"path": "x"}]}
    server.replies = [Reply(status, body=body)]
    with pytest.raises(cls) as raised:
        client(server).personas.list()
    error = raised.value
    assert isinstance(error, KasaError)
    assert (error.status, error.code, error.message, error.request_id) == (
        status,
        code,
        f"It failed with {status}",
        "req-123",
    )
    assert error.details == [{"path": "x"}]
    assert "req-123" in str(error)


def test_server_errors_and_unavailability_are_one_family() -> None:
    assert issubclass(kasa.PayloadTooLargeError, kasa.BadRequestError)
    assert issubclass(kasa.UnsupportedMediaTypeError, kasa.BadRequestError)
    assert issubclass(kasa.ServiceUnavailableError, kasa.ServerError)
    assert issubclass(kasa.KasaTimeoutError, kasa.KasaConnectionError)
    assert issubclass(kasa.StreamError, kasa.KasaConnectionError)


def test_reads_a_body_that_is_not_kasa_json_into_a_fallback_code_and_the_header_request_id(
    server: LocalServer,
) -> None:
    server.replies = [Reply(502, headers={"x-request-id": "from-header"}, body="<html>Bad gateway</html>")]
    with pytest.raises(kasa.ServiceUnavailableError) as raised:
        client(server).personas.list()
    error = raised.value
    assert (error.status, error.code, error.request_id) == (502, "upstream_unavailable", "from-header")
    assert raised.value.message == "HTTP error 502"


def test_gives_a_rate_limit_its_retry_after_and_tells_a_used_up_quota_apart(server: LocalServer) -> None:
    body = {"message": "Monthly quota used", "code": "quota_exceeded", "requestId": "r"}
    server.replies = [Reply(429, headers={"Retry-After": "86400"}, body=body)]
    with pytest.raises(kasa.RateLimitError) as raised:
        client(server).personas.list()
    assert raised.value.retry_after == 86400
    assert raised.value.quota_exceeded is True

    server.replies = [Reply(429, headers={"Retry-After": "7"}, body={"message": "Slow down", "code": "rate_limited"})]
    with pytest.raises(kasa.RateLimitError) as again:
        client(server).personas.list()
    assert (again.value.retry_after, again.value.quota_exceeded) == (7, False)


def test_raises_a_connection_error_with_status_0_when_nothing_listens() -> None:
    kasa_client = Kasa(base_url=f"http://127.0.0.1:{unused_port()}", max_retries=0)
    with pytest.raises(kasa.KasaConnectionError) as raised:
        kasa_client.languages.list()
    assert (raised.value.status, raised.value.code) == (0, "network_error")
    assert not isinstance(raised.value, kasa.KasaTimeoutError)


def test_raises_a_connection_error_when_the_server_hangs_up_without_answering(server: LocalServer) -> None:
    server.replies = [Reply(hang_up=True)]
    with pytest.raises(kasa.KasaConnectionError) as raised:
        client(server).languages.list()
    assert raised.value.code == "network_error"


def test_raises_a_timeout_error_when_the_answer_is_later_than_the_timeout(server: LocalServer) -> None:
    server.replies = [Reply(body={"count": 0, "languages": []}, delay=1.0)]
    with pytest.raises(kasa.KasaTimeoutError) as raised:
        client(server, timeout=0.2).languages.list()
    assert (raised.value.status, raised.value.code) == (0, "timeout")


def test_a_timeout_set_with_with_options_applies_to_that_copy_only(server: LocalServer) -> None:
    server.replies = [Reply(body={"count": 0, "languages": []}, delay=0.5)]
    patient = client(server)
    with pytest.raises(kasa.KasaTimeoutError):
        patient.with_options(timeout=0.1).languages.list()
    assert patient.languages.list() == {"count": 0, "languages": []}
