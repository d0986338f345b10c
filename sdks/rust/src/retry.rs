//! When a failed call is tried again, and after how long.

use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;

use crate::error::{Error, ErrorKind, CODE_QUOTA_EXCEEDED, CODE_STREAM_ERROR};

/// How often, and after how long, the client tries a failed call again.
///
/// Only calls that are safe to repeat are retried: idempotent ones (GET, PUT, DELETE, renaming, stopping,
/// detecting a language, signing in or out) and creating calls sent with an `Idempotency-Key`. Of those, a failed
/// connection, a timeout, a 429 and a 502, 503 or 504 are retried; never a used-up monthly quota
/// (`quota_exceeded`), an answer marked `x-should-retry: false`, or one whose `Retry-After` asks for longer than
/// [`max_retry_delay`](RetryPolicy::max_retry_delay). An answer marked `x-should-retry: true` is retried whatever
/// its status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt; 0 turns retrying off. Default 2.
    pub max_retries: u32,
    /// The longest single wait. An answer asking for longer (a quota that resets in hours, say) is returned at
    /// once: waiting hours inside a call is rarely what a caller wants. Default 60 s.
    pub max_retry_delay: Duration,
    /// The first back-off when the answer names no wait; it doubles with each retry, with jitter. Default 0.5 s.
    pub base_delay: Duration,
    /// The longest back-off the doubling reaches. Default 8 s.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 2,
            max_retry_delay: Duration::from_secs(60),
            base_delay: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        RetryPolicy { max_retries: 0, ..RetryPolicy::default() }
    }

    /// The durations left at zero taken from the default policy.
    pub(crate) fn with_defaults(mut self) -> Self {
        let d = RetryPolicy::default();
        if self.max_retry_delay.is_zero() {
            self.max_retry_delay = d.max_retry_delay;
        }
        if self.base_delay.is_zero() {
            self.base_delay = d.base_delay;
        }
        if self.max_backoff.is_zero() {
            self.max_backoff = d.max_backoff;
        }
        self
    }

    /// The exponential back-off with jitter before the `attempt`-th retry (0-based): between half and all of
    /// `base_delay · 2^attempt` (capped), so that many clients refused at once do not come back at once. `random`
    /// is a number in [0, 1).
    pub fn backoff(&self, attempt: u32, random: f64) -> Duration {
        let ceiling = self.base_delay.as_secs_f64() * 2f64.powi(attempt.min(62) as i32);
        let ceiling = ceiling.min(self.max_backoff.as_secs_f64()).min(self.max_retry_delay.as_secs_f64());
        let random = if (0.0..1.0).contains(&random) { random } else { 0.0 };
        Duration::from_secs_f64(ceiling / 2.0 + random * ceiling / 2.0)
    }

    /// How long to wait before trying again after `error` (the `attempt`-th failure, 0-based) of a call that is
    /// safe to repeat (`retryable_call`); `None` when the error is to be returned instead.
    pub(crate) fn delay(
        &self,
        error: &Error,
        attempt: u32,
        retryable_call: bool,
        now: SystemTime,
        random: f64,
    ) -> Option<Duration> {
        if attempt >= self.max_retries || !retryable_call {
            return None;
        }
        // Errors of the client's own making (a bad set-up, an answer it cannot read) do not get better.
        if matches!(error.kind(), ErrorKind::Config | ErrorKind::Decode) {
            return None;
        }
        let should_retry = error
            .headers()
            .and_then(|h| h.get("x-should-retry"))
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase())
            .unwrap_or_default();
        if should_retry == "false" {
            return None;
        }
        if should_retry != "true" {
            let status = error.status();
            if status != 0 && !matches!(status, 429 | 502 | 503 | 504) {
                return None;
            }
            if error.code() == CODE_QUOTA_EXCEEDED || error.code() == CODE_STREAM_ERROR {
                return None;
            }
        }
        let asked = match error.headers() {
            Some(headers) if error.status() != 0 => retry_after_header(headers, now),
            _ => None,
        };
        let wait = asked.unwrap_or_else(|| self.backoff(attempt, random));
        if wait > self.max_retry_delay {
            return None;
        }
        Some(wait)
    }
}

/// Reads a `Retry-After` value: delta-seconds (`"5"`, `"1.5"`) or an HTTP date (relative to `now`; a date in the
/// past is a wait of 0). `None` when the value is absent or not a wait anyone meant (`"soon"`, `"-1"`, `"NaN"`).
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let text = value.trim();
    if text.is_empty() {
        return None;
    }
    if let Ok(seconds) = text.parse::<f64>() {
        if !seconds.is_finite() || !(0.0..=1e12).contains(&seconds) {
            return None;
        }
        return Some(Duration::from_secs_f64(seconds));
    }
    let when = httpdate::parse_http_date(text).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The wait an answer asks for: `retry-after-ms` (finer, when a server sends it), else `Retry-After`.
pub(crate) fn retry_after_header(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    if let Some(millis) = headers.get("retry-after-ms").and_then(|v| v.to_str().ok()) {
        if let Ok(value) = millis.trim().parse::<f64>() {
            if value.is_finite() && (0.0..=1e15).contains(&value) {
                return Some(Duration::from_secs_f64(value / 1000.0));
            }
        }
    }
    parse_retry_after(headers.get("retry-after").and_then(|v| v.to_str().ok())?, now)
}

/// A number in [0, 1) for the jitter, from the operating system's random source.
pub(crate) fn random_unit() -> f64 {
    let mut bytes = [0u8; 8];
    if getrandom::getrandom(&mut bytes).is_err() {
        return 0.5;
    }
    (u64::from_le_bytes(bytes) >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn error_with(status: u16, code: &str, headers: &[(&'static str, &str)]) -> Error {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        let body = format!(r#"{{"message":"m","code":"{code}"}}"#);
        Error::from_response(status, body.as_bytes(), map, SystemTime::now())
    }

    #[test]
    fn parses_seconds_and_dates_and_refuses_nonsense() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(parse_retry_after("5", now), Some(Duration::from_secs(5)));
        assert_eq!(parse_retry_after(" 1.5 ", now), Some(Duration::from_millis(1500)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(parse_retry_after(&later, now), Some(Duration::from_secs(30)));
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(30));
        assert_eq!(parse_retry_after(&earlier, now), Some(Duration::ZERO));
        for nonsense in ["", "soon", "-1", "NaN", "inf"] {
            assert_eq!(parse_retry_after(nonsense, now), None, "{nonsense}");
        }
    }

    #[test]
    fn prefers_retry_after_ms() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("9"));
        headers.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after_header(&headers, SystemTime::now()), Some(Duration::from_millis(250)));
    }

    #[test]
    fn backoff_doubles_with_jitter_up_to_the_cap() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.backoff(0, 0.0), Duration::from_millis(250));
        assert_eq!(policy.backoff(0, 0.999_999).as_millis(), 499);
        assert_eq!(policy.backoff(1, 0.0), Duration::from_millis(500));
        assert_eq!(policy.backoff(3, 0.0), Duration::from_secs(2));
        assert_eq!(policy.backoff(10, 0.0), Duration::from_secs(4));
        assert_eq!(policy.backoff(40, 0.5), Duration::from_secs(6));
    }

    #[test]
    fn retries_what_may_be_retried_and_nothing_else() {
        let policy = RetryPolicy::default();
        let now = SystemTime::now();
        let asked = error_with(429, "rate_limited", &[("retry-after", "2")]);
        assert_eq!(policy.delay(&asked, 0, true, now, 0.0), Some(Duration::from_secs(2)));
        // Not for a call that is not safe to repeat, nor past the last retry.
        assert_eq!(policy.delay(&asked, 0, false, now, 0.0), None);
        assert_eq!(policy.delay(&asked, 2, true, now, 0.0), None);
        for status in [502, 503, 504] {
            let error = error_with(status, "upstream_unavailable", &[]);
            assert_eq!(policy.delay(&error, 1, true, now, 0.0), Some(Duration::from_millis(500)));
        }
        for status in [400, 401, 403, 404, 409, 500, 501] {
            assert_eq!(policy.delay(&error_with(status, "x", &[]), 0, true, now, 0.0), None, "{status}");
        }
        // A used-up monthly quota, a wait longer than the longest, and x-should-retry: false are returned at once.
        assert_eq!(policy.delay(&error_with(429, "quota_exceeded", &[("retry-after", "1")]), 0, true, now, 0.0), None);
        assert_eq!(policy.delay(&error_with(429, "rate_limited", &[("retry-after", "61")]), 0, true, now, 0.0), None);
        let refused = error_with(503, "upstream_unavailable", &[("x-should-retry", "false")]);
        assert_eq!(policy.delay(&refused, 0, true, now, 0.0), None);
        // x-should-retry: true wins over the status.
        let asked = error_with(500, "internal", &[("x-should-retry", "true")]);
        assert_eq!(policy.delay(&asked, 0, true, now, 0.0), Some(Duration::from_millis(250)));
        // No answer at all: retried, but a broken stream is not.
        let dropped = Error::connection(ErrorKind::Connection, "refused");
        assert_eq!(policy.delay(&dropped, 0, true, now, 0.0), Some(Duration::from_millis(250)));
        let timeout = Error::connection(ErrorKind::Timeout, "slow");
        assert!(policy.delay(&timeout, 0, true, now, 0.0).is_some());
        let broken = Error::connection(ErrorKind::Stream, "broke off");
        assert_eq!(policy.delay(&broken, 0, true, now, 0.0), None);
    }

    #[test]
    fn random_unit_is_in_range() {
        for _ in 0..100 {
            let value = random_unit();
            assert!((0.0..1.0).contains(&value));
        }
    }
}
