package kasa

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func callFailingWith(t *testing.T, r reply) error {
	t.Helper()
	server := newLocalServer(t)
	server.script(r)
	_, err := testClient(server, WithMaxRetries(0)).Personas.List(context.Background())
	if err == nil {
		t.Fatal("the call succeeded")
	}
	return err
}

func TestGivesEachStatusItsKind(t *testing.T) {
	cases := []struct {
		status int
		kind   any
		is     []error
		isNot  []error
	}{
		{400, &BadRequestError{}, []error{ErrBadRequest}, []error{ErrNotFound, ErrServer, ErrPayloadTooLarge}},
		{413, &BadRequestError{}, []error{ErrBadRequest, ErrPayloadTooLarge}, []error{ErrUnsupportedMediaType}},
		{415, &BadRequestError{}, []error{ErrBadRequest, ErrUnsupportedMediaType}, []error{ErrPayloadTooLarge}},
		{422, &BadRequestError{}, []error{ErrBadRequest}, nil},
		{401, &AuthenticationError{}, []error{ErrUnauthenticated}, []error{ErrPermissionDenied}},
		{403, &PermissionDeniedError{}, []error{ErrPermissionDenied}, []error{ErrUnauthenticated}},
		{404, &NotFoundError{}, []error{ErrNotFound}, []error{ErrConflict}},
		{409, &ConflictError{}, []error{ErrConflict}, nil},
		{429, &RateLimitError{}, []error{ErrRateLimited}, []error{ErrQuotaExceeded, ErrServer}},
		{500, &ServerError{}, []error{ErrServer}, []error{ErrServiceUnavailable}},
		{502, &ServerError{}, []error{ErrServer, ErrServiceUnavailable}, nil},
		{503, &ServerError{}, []error{ErrServer, ErrServiceUnavailable}, []error{ErrConnection}},
		{504, &ServerError{}, []error{ErrServer, ErrServiceUnavailable}, nil},
	}
	for _, c := range cases {
		err := callFailingWith(t, reply{status: c.status, body: map[string]any{"message": "It failed", "code": "some_code", "requestId": "req-1"}})
		kind := reflect.New(reflect.TypeOf(c.kind))
		if !errors.As(err, kind.Interface()) {
			t.Errorf("%d: %T is not a %T", c.status, err, c.kind)
		}
		for _, sentinel := range c.is {
			if !errors.Is(err, sentinel) {
				t.Errorf("%d: errors.Is(err, %v) is false", c.status, sentinel)
			}
		}
		for _, sentinel := range c.isNot {
			if errors.Is(err, sentinel) {
				t.Errorf("%d: errors.Is(err, %v) is true", c.status, sentinel)
			}
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("%d: no *APIError in %T", c.status, err)
		}
		if apiErr.Status != c.status || apiErr.Code != "some_code" || apiErr.Message != "It failed" || apiErr.RequestID != "req-1" {
			t.Errorf("%d: %+v", c.status, apiErr)
		}
	}
}

func TestReadsTheAPIsErrorBodyWithItsFieldErrors(t *testing.T) {
	err := callFailingWith(t, reply{status: 400, body: map[string]any{
		"message":   "email: Invalid email address",
		"code":      "validation_failed",
		"requestId": "req-400",
		"details":   []map[string]string{{"path": "email", "message": "Invalid email address"}, {"path": "password", "message": "Too short"}},
	}})
	var bad *BadRequestError
	if !errors.As(err, &bad) {
		t.Fatalf("%T", err)
	}
	want := []FieldError{{Path: "email", Message: "Invalid email address"}, {Path: "password", Message: "Too short"}}
	if got := bad.FieldErrors(); !reflect.DeepEqual(got, want) {
		t.Fatalf("FieldErrors() = %v", got)
	}
	if got := err.Error(); got != "kasa: 400 validation_failed: email: Invalid email address (request id req-400)" {
		t.Fatalf("Error() = %q", got)
	}
}

func TestAnAnswerThatIsNotKasasErrorJSONStillGivesTheStatusACodeAndTheRequestID(t *testing.T) {
	err := callFailingWith(t, reply{status: 502, header: map[string]string{"Content-Type": "text/html", "X-Request-Id": "req-proxy"}, body: "<html>Bad gateway</html>"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("%T", err)
	}
	if apiErr.Status != 502 || apiErr.Code != "upstream_unavailable" || apiErr.Message != "HTTP error 502" || apiErr.RequestID != "req-proxy" {
		t.Fatalf("%+v", apiErr)
	}
	if apiErr.FieldErrors() != nil {
		t.Fatal("field errors out of nothing")
	}
}

func TestARateLimitSaysHowLongToWaitAndWhetherTheQuotaIsUsedUp(t *testing.T) {
	err := callFailingWith(t, reply{status: 429, header: map[string]string{"Retry-After": "7"}, body: map[string]string{"message": "Slow down", "code": "rate_limited"}})
	var limited *RateLimitError
	if !errors.As(err, &limited) {
		t.Fatalf("%T", err)
	}
	if limited.RetryAfter != 7*time.Second || limited.QuotaExceeded() || errors.Is(err, ErrQuotaExceeded) {
		t.Fatalf("RetryAfter %v, quota %v", limited.RetryAfter, limited.QuotaExceeded())
	}

	err = callFailingWith(t, reply{status: 429, body: map[string]string{"message": "Used up", "code": "quota_exceeded"}})
	if !errors.As(err, &limited) || !limited.QuotaExceeded() || !errors.Is(err, ErrQuotaExceeded) || limited.RetryAfter != 0 {
		t.Fatalf("a used-up quota reads as %v", err)
	}
}

func TestAServiceThatIsAwaySaysItAndWhenToComeBack(t *testing.T) {
	err := callFailingWith(t, reply{status: 503, header: map[string]string{"Retry-After": "2"}, body: map[string]string{"message": "Chat service is unavailable", "code": "upstream_unavailable"}})
	var server *ServerError
	if !errors.As(err, &server) || !server.Unavailable() || server.RetryAfter != 2*time.Second {
		t.Fatalf("%v", err)
	}
}

func TestAnAddressWhereNothingListensIsAConnectionErrorWithStatus0(t *testing.T) {
	server := newLocalServer(t)
	address := server.URL
	server.Close()
	_, err := NewClient(WithBaseURL(address), WithMaxRetries(0)).Personas.List(context.Background())
	var connErr *ConnectionError
	if !errors.As(err, &connErr) {
		t.Fatalf("%T: %v", err, err)
	}
	if connErr.Status != 0 || connErr.Code != CodeNetworkError || connErr.Timeout() || connErr.Cause == nil {
		t.Fatalf("%+v", connErr)
	}
	if !errors.Is(err, ErrConnection) || errors.Is(err, ErrTimeout) || errors.Is(err, ErrServer) {
		t.Fatal("wrong sentinels")
	}
	if !strings.Contains(err.Error(), address) {
		t.Fatalf("the message does not name the address: %q", err.Error())
	}
}

func TestAnAnswerLateBeyondTheTimeoutIsATimeout(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{delay: 2 * time.Second, body: []any{}})
	_, err := testClient(server, WithMaxRetries(0), WithTimeout(100*time.Millisecond)).Personas.List(context.Background())
	var connErr *ConnectionError
	if !errors.As(err, &connErr) || !connErr.Timeout() || !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrConnection) {
		t.Fatalf("%T: %v", err, err)
	}
}

func TestErrorsOfOtherStatusesAreAPIErrors(t *testing.T) {
	err := errorFromResponse(418, []byte(`{"message":"I am a teapot"}`), http.Header{}, time.Now())
	apiErr, ok := err.(*APIError)
	if !ok || apiErr.Code != "http_error" || apiErr.Message != "I am a teapot" {
		t.Fatalf("%T %v", err, err)
	}
}
