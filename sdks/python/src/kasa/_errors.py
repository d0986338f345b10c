"""The errors of the Kasa SDK: one ``KasaError`` base, and one subclass per class of failure."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

import httpx

from ._retry import retry_after_seconds
from ._types import VideoJob

#: ``code`` of an error raised when no HTTP answer arrived at all (DNS, a refused or dropped connection).
NETWORK_ERROR = "network_error"
#: ``code`` of an error raised when the answer did not arrive in time.
TIMEOUT = "timeout"
#: ``code`` of an error raised when a streamed answer stopped before its closing event.
STREAM_ERROR = "stream_error"
#: ``code`` of a 429 whose monthly quota is used up: waiting a minute will not help.
QUOTA_EXCEEDED = "quota_exceeded"
#: ``code`` of an error raised when a wait (``video.wait``) ran out of time before what it waited for happened.
WAIT_TIMEOUT = "wait_timeout"
#: ``code`` of an error raised by ``video.download`` for a job that has no video (it has not succeeded).
VIDEO_NOT_READY = "video_not_ready"


class KasaError(Exception):
    """A failed call to the Kasa API.

    ``status`` is the HTTP status (0 when no answer arrived), ``code`` the API's stable error code
    (``validation_failed``, ``not_found``, ``rate_limited``, ...), ``message`` what went wrong in words,
    ``details`` what the API added (for a 400, each wrong field as ``{"path", "message"}``), and ``request_id``
    the id to quote when asking for support.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        details: Any = None,
        request_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details = details
        self.request_id = request_id
        self.headers: Mapping[str, str] = headers if headers is not None else {}

    def __str__(self) -> str:
        where = f", request id {self.request_id}" if self.request_id else ""
        return f"{self.message} (status {self.status}, {self.code}{where})"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, "
            f"message={self.message!r}, request_id={self.request_id!r})"
        )


class BadRequestError(KasaError):
    """400 (and 413, 415, 422): the request itself is wrong; ``details`` names each wrong field."""


class PayloadTooLargeError(BadRequestError):
    """413: the body is larger than the route takes (an attachment over its kind's limit, say)."""


class UnsupportedMediaTypeError(BadRequestError):
    """415: the body is of a type the route does not take (an attachment that is no accepted image or document)."""


class AuthenticationError(KasaError):
    """401: no credential, or one that is wrong, expired or revoked (an API key on an account route, too)."""


class PermissionDeniedError(KasaError):
    """403: signed in, but not allowed: the plan does not include it, or the key lacks the scope."""


class NotFoundError(KasaError):
    """404: nothing there, or it is someone else's (Kasa does not tell the two apart)."""


class ConflictError(KasaError):
    """409: it already exists (an e-mail address, a key name) or changed meanwhile."""


class RateLimitError(KasaError):
    """429: too many requests. ``retry_after`` is how many seconds the API asked to wait, when it said."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after

    @property
    def quota_exceeded(self) -> bool:
        """True when the plan's monthly quota is used up (retrying before the month turns is pointless)."""
        return self.code == QUOTA_EXCEEDED


class ServerError(KasaError):
    """500 and up: Kasa failed. Quote ``request_id`` when you report it."""


class ServiceUnavailableError(ServerError):
    """502, 503, 504: a part of Kasa (or every AI provider) is away for now; trying again later usually works."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class KasaConnectionError(KasaError):
    """No answer arrived: the address is wrong, the network is down, or the connection dropped (status 0)."""

    def __init__(self, message: str, *, code: str = NETWORK_ERROR, **kwargs: Any) -> None:
        super().__init__(message, status=0, code=code, **kwargs)


class KasaTimeoutError(KasaConnectionError):
    """The answer did not come within the client's ``timeout``."""

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(message, code=TIMEOUT, **kwargs)


class StreamError(KasaConnectionError):
    """A streamed answer stopped before its closing event (the connection dropped mid-reply)."""

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(message, code=STREAM_ERROR, **kwargs)


class WaitTimeoutError(KasaError):
    """A wait (``video.wait``) ran out of time before the job ended (status 0, ``wait_timeout``). The job goes on
    being made: ``job`` is the last state read (its ``status`` and ``progress``), to wait again or look later."""

    def __init__(self, message: str, *, job: VideoJob, **kwargs: Any) -> None:
        super().__init__(message, status=0, code=WAIT_TIMEOUT, **kwargs)
        self.job = job


class VideoNotReadyError(KasaError):
    """``video.download`` of a job that has no video yet, or failed (status 0, ``video_not_ready``); nothing was
    sent. ``job`` is the job given."""

    def __init__(self, message: str, *, job: VideoJob, **kwargs: Any) -> None:
        super().__init__(message, status=0, code=VIDEO_NOT_READY, **kwargs)
        self.job = job


def _code_for_status(status: int) -> str:
    """Fallback codes when the body is not Kasa's error JSON (a proxy's HTML page, say)."""
    fallback = {
        400: "bad_request",
        401: "unauthenticated",
        403: "forbidden",
        404: "not_found",
        409: "conflict",
        413: "payload_too_large",
        415: "unsupported_media_type",
    }
    if status in fallback:
        return fallback[status]
    if status == 429:
        return "rate_limited"
    if status == 504:
        return "upstream_timeout"
    if status >= 500:
        return "upstream_unavailable"
    return "http_error"


def _class_for_status(status: int) -> type[KasaError]:
    if status == 413:
        return PayloadTooLargeError
    if status == 415:
        return UnsupportedMediaTypeError
    if status in (400, 422):
        return BadRequestError
    if status == 401:
        return AuthenticationError
    if status == 403:
        return PermissionDeniedError
    if status == 404:
        return NotFoundError
    if status == 409:
        return ConflictError
    if status == 429:
        return RateLimitError
    if status in (502, 503, 504):
        return ServiceUnavailableError
    if status >= 500:
        return ServerError
    return KasaError


def error_from_status(status: int, body: bytes, headers: Mapping[str, str]) -> KasaError:
    """The error for a non-OK answer. A body that is not Kasa's ``{message, code, requestId, details}`` still
    gives the status, a code and the ``x-request-id`` header."""
    parsed: object = None
    try:
        parsed = json.loads(body) if body else None
    except ValueError:
        parsed = None
    # A JSON object's keys are strings; its values are checked one by one below.
    fields = cast("dict[str, object]", parsed) if isinstance(parsed, dict) else {}
    message = fields.get("message")
    if not isinstance(message, str) or not message.strip():
        message = f"HTTP error {status}"
    code = fields.get("code")
    request_id = fields.get("requestId")
    kwargs: dict[str, Any] = {
        "status": status,
        "code": code if isinstance(code, str) else _code_for_status(status),
        "details": fields.get("details"),
        "request_id": request_id if isinstance(request_id, str) else headers.get("x-request-id"),
        "headers": headers,
    }
    cls = _class_for_status(status)
    if cls in (RateLimitError, ServiceUnavailableError):
        kwargs["retry_after"] = retry_after_seconds(headers)
    return cls(message, **kwargs)


def error_from_transport(exc: httpx.TransportError, base_url: str) -> KasaConnectionError:
    """The error for a call that got no answer: a timeout, or any other network failure."""
    if isinstance(exc, httpx.TimeoutException):
        return KasaTimeoutError(f"The Kasa API at {base_url} did not answer in time ({type(exc).__name__}).")
    reason = str(exc) or type(exc).__name__
    return KasaConnectionError(f"Could not reach the Kasa API at {base_url}: {reason}")
