package kasa

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how often and how long the client waits before trying a failed call again. Only calls that
// are safe to repeat are retried: idempotent ones (GET, PUT, DELETE, renaming, stopping, detecting a language,
// signing in or out) and creating calls sent with an Idempotency-Key. Of those, a failed connection, a timeout,
// a 429 and a 502, 503 or 504 are retried; never a used-up monthly quota, an answer marked
// "x-should-retry: false", or one whose Retry-After is longer than MaxRetryDelay. An answer marked
// "x-should-retry: true" is retried whatever its status.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt; 0 turns retrying off.
	MaxRetries int
	// MaxRetryDelay is the longest single wait. An answer asking for longer (a quota that resets in hours, say) is
	// returned at once: waiting hours inside a call is rarely what a caller wants.
	MaxRetryDelay time.Duration
	// BaseDelay is the first back-off when the answer names no wait; it doubles with each attempt, with jitter.
	BaseDelay time.Duration
	// MaxBackoff is the longest back-off the doubling reaches.
	MaxBackoff time.Duration
}

// DefaultRetryPolicy is the policy of a new client: 2 retries, waits of at most 60 s, a back-off from 0.5 s
// doubling up to 8 s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 2, MaxRetryDelay: 60 * time.Second, BaseDelay: 500 * time.Millisecond, MaxBackoff: 8 * time.Second}
}

// withDefaults fills the durations left at zero from DefaultRetryPolicy (MaxRetries is taken as given).
func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy()
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	if p.MaxRetryDelay <= 0 {
		p.MaxRetryDelay = d.MaxRetryDelay
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = d.BaseDelay
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = d.MaxBackoff
	}
	return p
}

// retryStatuses are worth another try: too many requests, and a gateway or service that is away for now.
func retryStatus(status int) bool {
	return status == 429 || status == 502 || status == 503 || status == 504
}

// ParseRetryAfter reads a Retry-After header value, delta-seconds ("5", "1.5") or an HTTP date (relative to now;
// a date in the past is a wait of 0). ok is false when the value is absent or is not a wait anyone meant ("soon",
// "-1", "NaN", "Inf").
func ParseRetryAfter(value string, now time.Time) (wait time.Duration, ok bool) {
	text := strings.TrimSpace(value)
	if text == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseFloat(text, 64); err == nil {
		if seconds < 0 || math.IsNaN(seconds) || math.IsInf(seconds, 0) || seconds > math.MaxInt64/float64(time.Second) {
			return 0, false
		}
		return time.Duration(seconds * float64(time.Second)), true
	}
	when, err := http.ParseTime(text)
	if err != nil {
		return 0, false
	}
	if d := when.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// retryAfterHeader is the wait an answer asks for: retry-after-ms (finer, when a server sends it), else
// Retry-After.
func retryAfterHeader(header http.Header, now time.Time) (time.Duration, bool) {
	if millis := strings.TrimSpace(header.Get("Retry-After-Ms")); millis != "" {
		if value, err := strconv.ParseFloat(millis, 64); err == nil && value >= 0 && !math.IsInf(value, 0) && !math.IsNaN(value) &&
			value <= math.MaxInt64/float64(time.Millisecond) {
			return time.Duration(value * float64(time.Millisecond)), true
		}
	}
	return ParseRetryAfter(header.Get("Retry-After"), now)
}

// backoff is the exponential back-off with jitter for the attempt-th retry (0-based): between half and all of
// BaseDelay·2^attempt (capped), so that many clients refused at once do not come back at once. random gives a
// number in [0, 1).
func (p RetryPolicy) backoff(attempt int, random func() float64) time.Duration {
	ceiling := float64(p.BaseDelay) * math.Pow(2, float64(attempt))
	ceiling = math.Min(ceiling, math.Min(float64(p.MaxBackoff), float64(p.MaxRetryDelay)))
	return time.Duration(ceiling/2 + random()*ceiling/2)
}

// delay is how long to wait before trying again after err (the attempt-th failure, 0-based); ok is false when
// err is to be returned instead.
func (p RetryPolicy) delay(err error, attempt int, retryableCall bool, now time.Time, random func() float64) (time.Duration, bool) {
	if attempt >= p.MaxRetries || !retryableCall {
		return 0, false
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return 0, false
	}
	shouldRetry := ""
	if apiErr.Header != nil {
		shouldRetry = strings.ToLower(strings.TrimSpace(apiErr.Header.Get("X-Should-Retry")))
	}
	if shouldRetry == "false" {
		return 0, false
	}
	if shouldRetry != "true" {
		if apiErr.Status != 0 && !retryStatus(apiErr.Status) {
			return 0, false
		}
		if apiErr.Code == CodeQuotaExceeded || apiErr.Code == CodeStreamError {
			return 0, false
		}
	}
	wait, asked := time.Duration(0), false
	if apiErr.Status != 0 {
		wait, asked = retryAfterHeader(apiErr.Header, now)
	}
	if !asked {
		wait = p.backoff(attempt, random)
	}
	if wait > p.MaxRetryDelay {
		return 0, false
	}
	return wait, true
}
