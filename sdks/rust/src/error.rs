//! The one error type of the SDK: [`Error`], with an [`ErrorKind`] per kind of failure.

use std::error::Error as StdError;
use std::fmt;
use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;
use serde::Deserialize;
use serde_json::Value;

use crate::retry::retry_after_header;

/// The `code` of an error made by the client when no HTTP answer arrived at all (DNS, a refused or dropped
/// connection).
pub const CODE_NETWORK_ERROR: &str = "network_error";
/// The `code` of an error made by the client when the answer (or the next piece of a stream) did not arrive within
/// the client's timeout.
pub const CODE_TIMEOUT: &str = "timeout";
/// The `code` of an error made by the client when a streamed answer stopped before its closing event.
pub const CODE_STREAM_ERROR: &str = "stream_error";
/// The `code` of a 429 whose monthly quota is used up: waiting a minute will not help.
pub const CODE_QUOTA_EXCEEDED: &str = "quota_exceeded";
/// The `code` of a 503 (or of an error event in a stream): no AI provider could answer.
pub const CODE_UPSTREAM_UNAVAILABLE: &str = "upstream_unavailable";
/// The `code` of an error made by the client when an OK answer is not what the API documents.
pub const CODE_INVALID_RESPONSE: &str = "invalid_response";
/// The `code` of an error made by the client when the client or a call is set up wrongly (a base address that is
/// not a URL, a header value that cannot be sent).
pub const CODE_INVALID_CONFIG: &str = "invalid_config";
/// The `code` of the error of a wait ([`Video::wait`](crate::Video::wait)) that ran out of time before the job ended.
pub const CODE_WAIT_TIMEOUT: &str = "wait_timeout";
/// The `code` of the error of [`Video::download`](crate::Video::download) for a job that has no video (it has not
/// succeeded).
pub const CODE_VIDEO_NOT_READY: &str = "video_not_ready";

/// A `Result` whose error is the SDK's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The kind of a failure: what the caller may do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// 400, 413, 415 or 422: the request itself is wrong ([`Error::field_errors`] names each wrong field).
    BadRequest,
    /// 401: no credential, or a wrong, expired or revoked one (an API key on an account route, too).
    Authentication,
    /// 403: the plan does not include it, or the API key lacks the scope.
    PermissionDenied,
    /// 404: nothing there, or it is someone else's (Kasa does not tell the two apart).
    NotFound,
    /// 409: it already exists (an e-mail address, say).
    Conflict,
    /// 429: too many requests, or the monthly quota is used up ([`Error::is_quota_exceeded`]).
    RateLimit,
    /// 500 and up: Kasa failed ([`Error::is_unavailable`] for 502–504).
    Server,
    /// Another HTTP status the API does not document (a proxy's 405, say).
    Http,
    /// No answer arrived: the address is wrong, the network is down, the connection dropped (status 0).
    Connection,
    /// The answer, or the next piece of a stream, did not arrive within the client's timeout (status 0).
    Timeout,
    /// A streamed answer stopped before its closing event, or sent something that is not an event (status 0).
    Stream,
    /// An OK answer that is not what the API documents (not JSON, or JSON of another shape).
    Decode,
    /// The client or the call is set up wrongly; nothing was sent.
    Config,
    /// A wait for a video job ran out of time before the job ended (status 0, `wait_timeout`); the job goes on
    /// being made, and [`Error::video_job`] is the job as last read.
    WaitTimeout,
    /// A download of a video job that has no video: it has not succeeded (yet). Nothing was sent (status 0,
    /// `video_not_ready`); [`Error::video_job`] is the job given.
    VideoNotReady,
}

impl ErrorKind {
    /// The kind of an HTTP status that is not a success.
    pub fn from_status(status: u16) -> ErrorKind {
        match status {
            400 | 413 | 415 | 422 => ErrorKind::BadRequest,
            401 => ErrorKind::Authentication,
            403 => ErrorKind::PermissionDenied,
            404 => ErrorKind::NotFound,
            409 => ErrorKind::Conflict,
            429 => ErrorKind::RateLimit,
            500..=599 => ErrorKind::Server,
            _ => ErrorKind::Http,
        }
    }
}

/// One wrong field of a request the API refused with 400 `validation_failed`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct FieldError {
    /// The field, e.g. `"email"` or `"hints.recent.0"`.
    #[serde(default)]
    pub path: String,
    /// What is wrong with it.
    #[serde(default)]
    pub message: String,
}

/// A failed call: every call of the SDK that fails gives one. Read its [`kind`](Error::kind), or the API's
/// [`status`](Error::status), [`code`](Error::code), [`message`](Error::message) and
/// [`request_id`](Error::request_id) (to quote when asking for support).
///
/// ```no_run
/// # async fn run(client: kasa::Client) {
/// match client.sessions().get("0123456789abcdef01234567", Default::default()).await {
///     Ok(session) => println!("{}", session.title),
///     Err(err) if err.kind() == kasa::ErrorKind::NotFound => println!("gone"),
///     Err(err) if err.is_quota_exceeded() => println!("the monthly quota is used up"),
///     Err(err) => println!("{} {} {:?}", err.status(), err.code(), err.request_id()),
/// }
/// # }
/// ```
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    status: u16,
    code: String,
    message: String,
    details: Option<Value>,
    request_id: Option<String>,
    retry_after: Option<Duration>,
    headers: Option<HeaderMap>,
    source: Option<Box<dyn StdError + Send + Sync>>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, status: u16, code: &str, message: impl Into<String>) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                status,
                code: code.to_string(),
                message: message.into(),
                details: None,
                request_id: None,
                retry_after: None,
                headers: None,
                source: None,
            }),
        }
    }

    /// An error made by the client: no answer, a timeout, a stream that broke off (status 0).
    pub(crate) fn connection(kind: ErrorKind, message: impl Into<String>) -> Error {
        let code = match kind {
            ErrorKind::Timeout => CODE_TIMEOUT,
            ErrorKind::Stream => CODE_STREAM_ERROR,
            _ => CODE_NETWORK_ERROR,
        };
        Error::new(kind, 0, code, message)
    }

    pub(crate) fn decode(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Decode, 0, CODE_INVALID_RESPONSE, message)
    }

    pub(crate) fn config(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Config, 0, CODE_INVALID_CONFIG, message)
    }

    /// An error the client makes about a video job whose answers came but did not do (status 0): the wait ran out
    /// of time, or the job has no video. `details` is `{"id": .., "job": ..}` or `{"id": .., "status": ..}`.
    pub(crate) fn video(kind: ErrorKind, message: impl Into<String>, details: Value) -> Error {
        let code = if kind == ErrorKind::WaitTimeout { CODE_WAIT_TIMEOUT } else { CODE_VIDEO_NOT_READY };
        let mut error = Error::new(kind, 0, code, message);
        error.inner.details = Some(details);
        error
    }

    pub(crate) fn with_source(mut self, source: impl StdError + Send + Sync + 'static) -> Error {
        self.inner.source = Some(Box::new(source));
        self
    }

    pub(crate) fn with_request_id(mut self, request_id: Option<String>) -> Error {
        if self.inner.request_id.is_none() {
            self.inner.request_id = request_id;
        }
        self
    }

    /// The error a streamed reply's `error` event (or an OpenAI error chunk) stands for: the same failure the
    /// whole call answers with a 503.
    pub(crate) fn stream_failure(message: &str, request_id: Option<String>) -> Error {
        let message = if message.trim().is_empty() { "The reply failed." } else { message };
        Error::new(ErrorKind::Server, 503, CODE_UPSTREAM_UNAVAILABLE, message).with_request_id(request_id)
    }

    /// The error of a non-OK answer. A body that is not Kasa's `{message, code, requestId, details}` still gives
    /// the status, a code and the `x-request-id` header.
    pub(crate) fn from_response(status: u16, body: &[u8], headers: HeaderMap, now: SystemTime) -> Error {
        #[derive(Deserialize, Default)]
        struct Body {
            message: Option<Value>,
            code: Option<Value>,
            #[serde(rename = "requestId")]
            request_id: Option<Value>,
            details: Option<Value>,
        }
        let parsed: Body = serde_json::from_slice(body).unwrap_or_default();
        let text = |value: &Option<Value>| match value {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            _ => None,
        };
        let message = text(&parsed.message).unwrap_or_else(|| format!("HTTP error {status}"));
        let code = text(&parsed.code).unwrap_or_else(|| fallback_code(status).to_string());
        let request_id = text(&parsed.request_id).or_else(|| {
            headers.get("x-request-id").and_then(|v| v.to_str().ok()).filter(|v| !v.is_empty()).map(str::to_string)
        });
        let mut error = Error::new(ErrorKind::from_status(status), status, &code, message);
        error.inner.details = parsed.details.filter(|d| !d.is_null());
        error.inner.request_id = request_id;
        if status == 429 || (502..=504).contains(&status) {
            error.inner.retry_after = retry_after_header(&headers, now);
        }
        error.inner.headers = Some(headers);
        error
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The HTTP status; 0 when no answer arrived (a connection error, a timeout, a broken stream) or the client
    /// made the error itself.
    pub fn status(&self) -> u16 {
        self.inner.status
    }

    /// The API's stable error code (`validation_failed`, `unauthenticated`, `not_found`, `rate_limited`,
    /// `quota_exceeded`, ...), or one of the `CODE_*` constants of this crate when the client made the error.
    pub fn code(&self) -> &str {
        &self.inner.code
    }

    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// What the API added, as JSON; for a 400, each wrong field (see [`field_errors`](Error::field_errors)).
    pub fn details(&self) -> Option<&Value> {
        self.inner.details.as_ref()
    }

    /// Each wrong field a 400 names in its details; empty when the details are not such a list.
    pub fn field_errors(&self) -> Vec<FieldError> {
        self.inner
            .details
            .as_ref()
            .and_then(|d| serde_json::from_value::<Vec<FieldError>>(d.clone()).ok())
            .unwrap_or_default()
    }

    /// The video job a [`WaitTimeout`](ErrorKind::WaitTimeout) error last read (`None` when the time ran out before
    /// the first read), or the one a [`VideoNotReady`](ErrorKind::VideoNotReady) error was given; `None` for other
    /// errors.
    pub fn video_job(&self) -> Option<crate::types::VideoJob> {
        match self.inner.kind {
            ErrorKind::WaitTimeout | ErrorKind::VideoNotReady => self
                .inner
                .details
                .as_ref()
                .and_then(|d| d.get("job"))
                .filter(|job| !job.is_null())
                .and_then(|job| serde_json::from_value(job.clone()).ok()),
            _ => None,
        }
    }

    /// The id to quote when asking for support (the body's `requestId`, else the `x-request-id` header).
    pub fn request_id(&self) -> Option<&str> {
        self.inner.request_id.as_deref()
    }

    /// The wait a 429, 502, 503 or 504 asked for (`Retry-After`, or `retry-after-ms`), when it named one.
    pub fn retry_after(&self) -> Option<Duration> {
        self.inner.retry_after
    }

    /// The answer's headers; `None` when no answer arrived.
    pub fn headers(&self) -> Option<&HeaderMap> {
        self.inner.headers.as_ref()
    }

    /// Whether it is a 429 whose monthly quota is used up: retrying before the month turns is pointless.
    pub fn is_quota_exceeded(&self) -> bool {
        self.inner.status == 429 && self.inner.code == CODE_QUOTA_EXCEEDED
    }

    /// Whether it is a 413 (a [`BadRequest`](ErrorKind::BadRequest)): the body is too large, an attachment over its
    /// kind's limit, say.
    pub fn is_payload_too_large(&self) -> bool {
        self.inner.status == 413
    }

    /// Whether it is a 415 (a [`BadRequest`](ErrorKind::BadRequest)): the body is of a type the route does not
    /// take, an attachment that is no accepted image or document, say.
    pub fn is_unsupported_media_type(&self) -> bool {
        self.inner.status == 415
    }

    /// Whether it is a 502, 503 or 504: a part of Kasa (or every AI provider) is away for now, and trying again
    /// later usually works.
    pub fn is_unavailable(&self) -> bool {
        (502..=504).contains(&self.inner.status)
    }

    /// Whether no HTTP answer arrived: a connection error, a timeout or a stream that broke off (status 0).
    pub fn is_connection(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::Connection | ErrorKind::Timeout | ErrorKind::Stream)
    }

    /// Whether the answer, or the next piece of a stream, did not arrive within the client's timeout.
    pub fn is_timeout(&self) -> bool {
        self.inner.kind == ErrorKind::Timeout
    }
}

/// The code of an answer whose body is not Kasa's error JSON (a proxy's HTML page, say).
fn fallback_code(status: u16) -> &'static str {
    match status {
        400 => "bad_request",
        401 => "unauthenticated",
        403 => "forbidden",
        404 => "not_found",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        429 => "rate_limited",
        504 => "upstream_timeout",
        500..=599 => CODE_UPSTREAM_UNAVAILABLE,
        _ => "http_error",
    }
}

impl fmt::Display for Error {
    /// The status, the code, the message and the request id on one line:
    /// `kasa: 404 not_found: Session not found (request id 4b1d…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("kasa: ")?;
        if self.inner.status != 0 {
            write!(f, "{} ", self.inner.status)?;
        }
        write!(f, "{}: {}", self.inner.code, self.inner.message)?;
        if let Some(id) = &self.inner.request_id {
            write!(f, " (request id {id})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Error");
        debug
            .field("kind", &self.inner.kind)
            .field("status", &self.inner.status)
            .field("code", &self.inner.code)
            .field("message", &self.inner.message);
        if let Some(details) = &self.inner.details {
            debug.field("details", details);
        }
        if let Some(id) = &self.inner.request_id {
            debug.field("request_id", id);
        }
        if let Some(wait) = &self.inner.retry_after {
            debug.field("retry_after", wait);
        }
        if let Some(source) = &self.inner.source {
            debug.field("source", source);
        }
        debug.finish()
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.inner.source.as_ref().map(|s| s.as_ref() as &(dyn StdError + 'static))
    }
}
