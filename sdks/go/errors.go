package kasa

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Codes of the errors the client makes itself, when no answer of the API says otherwise.
const (
	// CodeNetworkError is the Code of an error returned when no HTTP answer arrived at all (DNS, a refused or
	// dropped connection).
	CodeNetworkError = "network_error"
	// CodeTimeout is the Code of an error returned when the answer (or the next piece of a stream) did not arrive
	// within the client's timeout.
	CodeTimeout = "timeout"
	// CodeStreamError is the Code of an error returned when a streamed answer stopped before its closing event.
	CodeStreamError = "stream_error"
	// CodeQuotaExceeded is the Code of a 429 whose monthly quota is used up: waiting a minute will not help.
	CodeQuotaExceeded = "quota_exceeded"
	// CodeUpstreamUnavailable is the Code of a 503 (or of an error event in a stream): no AI provider could answer.
	CodeUpstreamUnavailable = "upstream_unavailable"
	// CodeWaitTimeout is the Code of an error returned when a wait (Video.Wait) ran out of time before the job
	// ended.
	CodeWaitTimeout = "wait_timeout"
	// CodeVideoNotReady is the Code of an error returned by Video.Download for a job that has no video (it has not
	// succeeded).
	CodeVideoNotReady = "video_not_ready"
)

// Sentinels to test a failure's kind with errors.Is, e.g. errors.Is(err, kasa.ErrNotFound). Every error the
// client returns for a failed call matches exactly the sentinels of its kind (a 503 matches ErrServer and
// ErrServiceUnavailable; a timeout matches ErrConnection and ErrTimeout).
var (
	// ErrBadRequest matches a 400, 413, 415 or 422: the request itself is wrong.
	ErrBadRequest = errors.New("kasa: bad request")
	// ErrPayloadTooLarge matches a 413 (and ErrBadRequest): the body is too large, an attachment over its kind's
	// limit, say.
	ErrPayloadTooLarge = errors.New("kasa: payload too large")
	// ErrUnsupportedMediaType matches a 415 (and ErrBadRequest): the body is of a type the route does not take, an
	// attachment that is no accepted image or document, say.
	ErrUnsupportedMediaType = errors.New("kasa: unsupported media type")
	// ErrUnauthenticated matches a 401: no credential, or a wrong, expired or revoked one.
	ErrUnauthenticated = errors.New("kasa: unauthenticated")
	// ErrPermissionDenied matches a 403: the plan does not include it, or the API key lacks the scope.
	ErrPermissionDenied = errors.New("kasa: permission denied")
	// ErrNotFound matches a 404: nothing there, or it is someone else's.
	ErrNotFound = errors.New("kasa: not found")
	// ErrConflict matches a 409: it already exists.
	ErrConflict = errors.New("kasa: conflict")
	// ErrRateLimited matches a 429, a used-up monthly quota included.
	ErrRateLimited = errors.New("kasa: rate limited")
	// ErrQuotaExceeded matches a 429 whose monthly quota is used up (code quota_exceeded).
	ErrQuotaExceeded = errors.New("kasa: monthly quota used up")
	// ErrServer matches a status of 500 and up.
	ErrServer = errors.New("kasa: server error")
	// ErrServiceUnavailable matches a 502, 503 or 504: a part of Kasa (or every AI provider) is away for now.
	ErrServiceUnavailable = errors.New("kasa: service unavailable")
	// ErrConnection matches every failure without an HTTP answer (status 0): a network error, a timeout, a
	// stream that broke off.
	ErrConnection = errors.New("kasa: no answer")
	// ErrTimeout matches an answer that did not arrive within the client's timeout.
	ErrTimeout = errors.New("kasa: timed out")
	// ErrStream matches a streamed answer that stopped before its closing event.
	ErrStream = errors.New("kasa: stream broke off")
	// ErrWaitTimeout matches a wait (Video.Wait) that ran out of time before the job ended.
	ErrWaitTimeout = errors.New("kasa: the wait ran out of time")
	// ErrVideoNotReady matches Video.Download of a job that has no video yet.
	ErrVideoNotReady = errors.New("kasa: the video is not ready")
)

// APIError is a failed call to the Kasa API: every error the client returns for a call (except the caller's own
// context ending) is, or wraps, one. Read it with errors.As:
//
//	var apiErr *kasa.APIError
//	if errors.As(err, &apiErr) {
//		log.Println(apiErr.Status, apiErr.Code, apiErr.RequestID)
//	}
type APIError struct {
	// Status is the HTTP status; 0 when no answer arrived (see ConnectionError).
	Status int
	// Code is the API's stable error code (validation_failed, unauthenticated, not_found, rate_limited, ...), or
	// one of the Code constants of this package when the client made the error itself.
	Code string
	// Message says what went wrong, in words.
	Message string
	// Details is what the API added, as JSON; for a 400, each wrong field (see FieldErrors).
	Details json.RawMessage
	// RequestID is the id to quote when asking for support (the body's requestId, else the x-request-id header).
	RequestID string
	// RetryAfter is the wait a 429, 502, 503 or 504 asked for (Retry-After); 0 when it named none.
	RetryAfter time.Duration
	// Header holds the answer's headers (nil when no answer arrived).
	Header http.Header
}

// Error gives the status, the code, the message and the request id on one line.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("kasa: ")
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d ", e.Status)
	}
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	return b.String()
}

// Is reports whether the error is of the kind a sentinel names (ErrNotFound, ErrRateLimited, ...).
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.Status == 400 || e.Status == 413 || e.Status == 415 || e.Status == 422
	case ErrPayloadTooLarge:
		return e.Status == 413
	case ErrUnsupportedMediaType:
		return e.Status == 415
	case ErrUnauthenticated:
		return e.Status == 401
	case ErrPermissionDenied:
		return e.Status == 403
	case ErrNotFound:
		return e.Status == 404
	case ErrConflict:
		return e.Status == 409
	case ErrRateLimited:
		return e.Status == 429
	case ErrQuotaExceeded:
		return e.Status == 429 && e.Code == CodeQuotaExceeded
	case ErrServer:
		return e.Status >= 500
	case ErrServiceUnavailable:
		return e.Status >= 502 && e.Status <= 504
	case ErrConnection:
		return e.Status == 0 && !waitOutcome(e.Code)
	case ErrTimeout:
		return e.Status == 0 && e.Code == CodeTimeout
	case ErrStream:
		return e.Status == 0 && e.Code == CodeStreamError
	case ErrWaitTimeout:
		return e.Status == 0 && e.Code == CodeWaitTimeout
	case ErrVideoNotReady:
		return e.Status == 0 && e.Code == CodeVideoNotReady
	}
	return false
}

// waitOutcome reports whether a code is one of the client's own answers about a video job (status 0, like a
// failure without an answer, but the answers came: the job was not done, or had no video).
func waitOutcome(code string) bool { return code == CodeWaitTimeout || code == CodeVideoNotReady }

// FieldError is one wrong field of a request the API refused with 400 validation_failed.
type FieldError struct {
	// Path names the field, e.g. "email" or "hints.recent.0".
	Path string `json:"path"`
	// Message says what is wrong with it.
	Message string `json:"message"`
}

// FieldErrors gives each wrong field a 400 names in Details; nil when Details is not such a list.
func (e *APIError) FieldErrors() []FieldError {
	if len(e.Details) == 0 {
		return nil
	}
	var fields []FieldError
	if json.Unmarshal(e.Details, &fields) != nil {
		return nil
	}
	return fields
}

// BadRequestError is a 400, 413, 415 or 422: the request itself is wrong (validation_failed names each field in
// FieldErrors).
type BadRequestError struct{ *APIError }

// Unwrap gives the APIError.
func (e *BadRequestError) Unwrap() error { return e.APIError }

// AuthenticationError is a 401: no credential, or a wrong, expired or revoked one (an API key on an account route,
// too).
type AuthenticationError struct{ *APIError }

// Unwrap gives the APIError.
func (e *AuthenticationError) Unwrap() error { return e.APIError }

// PermissionDeniedError is a 403: signed in, but not allowed: the plan does not include it, or the API key lacks
// the scope.
type PermissionDeniedError struct{ *APIError }

// Unwrap gives the APIError.
func (e *PermissionDeniedError) Unwrap() error { return e.APIError }

// NotFoundError is a 404: nothing there, or it is someone else's (Kasa does not tell the two apart).
type NotFoundError struct{ *APIError }

// Unwrap gives the APIError.
func (e *NotFoundError) Unwrap() error { return e.APIError }

// ConflictError is a 409: it already exists (an e-mail address, say).
type ConflictError struct{ *APIError }

// Unwrap gives the APIError.
func (e *ConflictError) Unwrap() error { return e.APIError }

// RateLimitError is a 429: too many requests, or the plan's monthly quota is used up. RetryAfter is the wait the
// API asked for, when it named one.
type RateLimitError struct{ *APIError }

// Unwrap gives the APIError.
func (e *RateLimitError) Unwrap() error { return e.APIError }

// QuotaExceeded reports whether the plan's monthly quota is used up (retrying before the month turns is
// pointless).
func (e *RateLimitError) QuotaExceeded() bool { return e.Code == CodeQuotaExceeded }

// ServerError is a status of 500 and up: Kasa failed. Quote RequestID when you report it.
type ServerError struct{ *APIError }

// Unwrap gives the APIError.
func (e *ServerError) Unwrap() error { return e.APIError }

// Unavailable reports whether it is a 502, 503 or 504: a part of Kasa (or every AI provider) is away for now, and
// trying again later usually works (RetryAfter says when, if the API named a time).
func (e *ServerError) Unavailable() bool { return e.Status >= 502 && e.Status <= 504 }

// ConnectionError is a failure without an HTTP answer (Status 0): the address is wrong, the network is down, the
// connection dropped (CodeNetworkError), the answer did not come in time (CodeTimeout), or a stream broke off
// before its end (CodeStreamError). Cause is the underlying error, if any.
type ConnectionError struct {
	*APIError
	// Cause is what the network layer reported (nil for a stream that simply ended too early).
	Cause error
}

// Unwrap gives the APIError and the cause.
func (e *ConnectionError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.APIError}
	}
	return []error{e.APIError, e.Cause}
}

// Timeout reports whether the answer did not come within the client's timeout.
func (e *ConnectionError) Timeout() bool { return e.Code == CodeTimeout }

// WaitTimeoutError is a wait (Video.Wait) that ran out of time before the job ended (Status 0, CodeWaitTimeout).
// The job goes on being made: Job is the last state read, to wait again or look later.
type WaitTimeoutError struct {
	*APIError
	// Job is the job as last read (its Status and Progress); nil when the time ran out before the first read.
	Job *VideoJob
}

// Unwrap gives the APIError.
func (e *WaitTimeoutError) Unwrap() error { return e.APIError }

// VideoNotReadyError is Video.Download of a job that has no video (Status 0, CodeVideoNotReady): it has not
// succeeded yet, or it failed. Nothing was sent.
type VideoNotReadyError struct {
	*APIError
	// Job is the job given.
	Job *VideoJob
}

// Unwrap gives the APIError.
func (e *VideoNotReadyError) Unwrap() error { return e.APIError }

func newConnectionError(code, message, requestID string, cause error) *ConnectionError {
	return &ConnectionError{
		APIError: &APIError{Status: 0, Code: code, Message: message, RequestID: requestID},
		Cause:    cause,
	}
}

// errorBody is the one error body of the Kasa API.
type errorBody struct {
	Message   *string         `json:"message"`
	Code      *string         `json:"code"`
	RequestID *string         `json:"requestId"`
	Details   json.RawMessage `json:"details"`
}

// fallbackCode is the code of an answer whose body is not Kasa's error JSON (a proxy's HTML page, say).
func fallbackCode(status int) string {
	switch {
	case status == 400:
		return "bad_request"
	case status == 401:
		return "unauthenticated"
	case status == 403:
		return "forbidden"
	case status == 404:
		return "not_found"
	case status == 409:
		return "conflict"
	case status == 413:
		return "payload_too_large"
	case status == 415:
		return "unsupported_media_type"
	case status == 429:
		return "rate_limited"
	case status == 504:
		return "upstream_timeout"
	case status >= 500:
		return CodeUpstreamUnavailable
	}
	return "http_error"
}

// errorFromResponse is the error for a non-OK answer. A body that is not Kasa's {message, code, requestId,
// details} still gives the status, a code and the x-request-id header.
func errorFromResponse(status int, body []byte, header http.Header, now time.Time) error {
	var parsed errorBody
	_ = json.Unmarshal(body, &parsed)
	apiErr := &APIError{Status: status, Header: header}
	if parsed.Message != nil && strings.TrimSpace(*parsed.Message) != "" {
		apiErr.Message = *parsed.Message
	} else {
		apiErr.Message = fmt.Sprintf("HTTP error %d", status)
	}
	if parsed.Code != nil && *parsed.Code != "" {
		apiErr.Code = *parsed.Code
	} else {
		apiErr.Code = fallbackCode(status)
	}
	if parsed.RequestID != nil && *parsed.RequestID != "" {
		apiErr.RequestID = *parsed.RequestID
	} else {
		apiErr.RequestID = header.Get("X-Request-Id")
	}
	if len(parsed.Details) > 0 && string(parsed.Details) != "null" {
		apiErr.Details = parsed.Details
	}
	if status == 429 || (status >= 502 && status <= 504) {
		if wait, ok := retryAfterHeader(header, now); ok {
			apiErr.RetryAfter = wait
		}
	}
	return kindOf(apiErr)
}

// kindOf wraps an APIError in the type of its kind.
func kindOf(e *APIError) error {
	switch {
	case e.Status == 400 || e.Status == 413 || e.Status == 415 || e.Status == 422:
		return &BadRequestError{e}
	case e.Status == 401:
		return &AuthenticationError{e}
	case e.Status == 403:
		return &PermissionDeniedError{e}
	case e.Status == 404:
		return &NotFoundError{e}
	case e.Status == 409:
		return &ConflictError{e}
	case e.Status == 429:
		return &RateLimitError{e}
	case e.Status >= 500:
		return &ServerError{e}
	}
	return e
}
