package kasa

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

var languagesAnswer = map[string]any{"count": 0, "languages": []any{}}
var sessionAnswer = map[string]any{"id": "s1", "personaId": "kasa", "title": "Hi", "createdAt": "2026-11-24T00:00:00.000Z"}

func unavailable(header map[string]string) reply {
	return reply{status: 503, header: header, body: map[string]string{"message": "Chat service is unavailable", "code": "upstream_unavailable"}}
}

func failure(status int, code string, header map[string]string) error {
	h := http.Header{}
	for name, value := range header {
		h.Set(name, value)
	}
	return &APIError{Status: status, Code: code, Header: h}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for value, want := range map[string]time.Duration{"5": 5 * time.Second, " 1.5 ": 1500 * time.Millisecond, "0": 0} {
		if got, ok := ParseRetryAfter(value, now); !ok || got != want {
			t.Errorf("ParseRetryAfter(%q) = %v, %v", value, got, ok)
		}
	}
	if got, ok := ParseRetryAfter(now.Add(30*time.Second).Format(http.TimeFormat), now); !ok || got != 30*time.Second {
		t.Errorf("an HTTP date 30 s away = %v, %v", got, ok)
	}
	if got, ok := ParseRetryAfter(now.Add(-30*time.Second).Format(http.TimeFormat), now); !ok || got != 0 {
		t.Errorf("an HTTP date in the past = %v, %v", got, ok)
	}
	for _, value := range []string{"", "soon", "-1", "NaN", "Inf", "1e300", "Wed, 99 Foo"} {
		if got, ok := ParseRetryAfter(value, now); ok {
			t.Errorf("ParseRetryAfter(%q) = %v, want no wait", value, got)
		}
	}
}

func TestBackoffDoublesWithEachAttemptBetweenHalfAndAllOfTheCeiling(t *testing.T) {
	policy := DefaultRetryPolicy()
	low := func() float64 { return 0 }
	high := func() float64 { return 1 }
	wantLow := []time.Duration{250, 500, 1000, 2000, 4000, 4000}
	wantHigh := []time.Duration{500, 1000, 2000, 4000, 8000, 8000}
	for attempt := range wantLow {
		if got := policy.backoff(attempt, low); got != wantLow[attempt]*time.Millisecond {
			t.Errorf("lowest back-off %d = %v", attempt, got)
		}
		if got := policy.backoff(attempt, high); got != wantHigh[attempt]*time.Millisecond {
			t.Errorf("highest back-off %d = %v", attempt, got)
		}
	}
}

func TestBackoffJittersSoThatClientsRefusedTogetherDoNotReturnTogether(t *testing.T) {
	seen := map[time.Duration]bool{}
	client := NewClient()
	for i := 0; i < 20; i++ {
		wait := DefaultRetryPolicy().backoff(3, client.cfg.random)
		if wait < 2*time.Second || wait > 4*time.Second {
			t.Fatalf("wait %v out of [2 s, 4 s]", wait)
		}
		seen[wait] = true
	}
	if len(seen) < 2 {
		t.Fatal("every wait was the same")
	}
}

func TestRetryDelayRetriesOnlyWhatIsWorthAnotherTry(t *testing.T) {
	policy := fastRetries
	now := time.Now()
	random := func() float64 { return 0.5 }
	delay := func(err error, attempt int, retryable bool) (time.Duration, bool) {
		return policy.delay(err, attempt, retryable, now, random)
	}
	for _, err := range []error{failure(429, "rate_limited", nil), failure(502, "x", nil), failure(503, "x", nil), failure(504, "x", nil),
		newConnectionError(CodeNetworkError, "down", "", nil), newConnectionError(CodeTimeout, "late", "", nil)} {
		if _, ok := delay(err, 0, true); !ok {
			t.Errorf("%v is not retried", err)
		}
		if _, ok := delay(err, 0, false); ok {
			t.Errorf("%v is retried for a call that is not safe to repeat", err)
		}
	}
	for _, status := range []int{400, 401, 403, 404, 409, 500} {
		if _, ok := delay(failure(status, "x", nil), 0, true); ok {
			t.Errorf("%d is retried", status)
		}
	}
	if wait, ok := delay(failure(429, "rate_limited", map[string]string{"Retry-After": "3"}), 0, true); !ok || wait != 3*time.Second {
		t.Errorf("Retry-After 3 gives %v, %v", wait, ok)
	}
	if wait, ok := delay(failure(503, "x", map[string]string{"Retry-After-Ms": "250"}), 0, true); !ok || wait != 250*time.Millisecond {
		t.Errorf("retry-after-ms 250 gives %v, %v", wait, ok)
	}
	if _, ok := delay(failure(429, "rate_limited", map[string]string{"Retry-After": "259200"}), 0, true); ok {
		t.Error("a wait of days is accepted")
	}
	if _, ok := delay(failure(429, "quota_exceeded", map[string]string{"Retry-After": "1"}), 0, true); ok {
		t.Error("a used-up quota is retried")
	}
	if _, ok := delay(failure(503, "x", map[string]string{"X-Should-Retry": "false"}), 0, true); ok {
		t.Error("x-should-retry: false is retried")
	}
	if _, ok := delay(failure(500, "x", map[string]string{"X-Should-Retry": "true"}), 0, true); !ok {
		t.Error("x-should-retry: true is not retried")
	}
	if _, ok := delay(failure(503, "x", nil), 1, true); !ok {
		t.Error("the second retry is refused")
	}
	if _, ok := delay(failure(503, "x", nil), 2, true); ok {
		t.Error("a third retry is made with MaxRetries 2")
	}
	if _, ok := delay(newConnectionError(CodeStreamError, "broke off", "", nil), 0, true); ok {
		t.Error("a broken stream is retried")
	}
}

func TestRetriesAGetAfter503AndReturnsTheAnswer(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(map[string]string{"Retry-After": "0"}), reply{body: languagesAnswer})
	if _, err := testClient(server).Languages.List(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if n := len(server.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}

func TestRetriesAGetWhoseConnectionDropped(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{hangUp: true}, reply{body: languagesAnswer})
	if _, err := testClient(server).Languages.List(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if n := len(server.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}

func TestRetriesATimedOutGet(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{delay: 2 * time.Second, body: languagesAnswer}, reply{body: languagesAnswer})
	if _, err := testClient(server, WithTimeout(300*time.Millisecond)).Languages.List(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if n := len(server.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}

func TestWaitsTheRetryAfterA429Names(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: map[string]string{"message": "Slow down", "code": "rate_limited"}},
		reply{body: languagesAnswer})
	started := time.Now()
	if _, err := testClient(server).Languages.List(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(started); elapsed < 950*time.Millisecond {
		t.Fatalf("retried after %v", elapsed)
	}
}

func TestReturnsAtOnceWhenRetryAfterIsDaysAway(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 429, header: map[string]string{"Retry-After": "259200"}, body: map[string]string{"message": "Later", "code": "rate_limited"}})
	started := time.Now()
	_, err := testClient(server).Languages.List(context.Background(), "")
	var limited *RateLimitError
	if !errors.As(err, &limited) || limited.RetryAfter != 259200*time.Second {
		t.Fatalf("%v", err)
	}
	if elapsed := time.Since(started); elapsed > time.Second {
		t.Fatalf("returned after %v", elapsed)
	}
	if n := len(server.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestReturnsAUsedUpMonthlyQuotaAtOnce(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: map[string]string{"message": "Your plan's 1,000 calls this month are used", "code": "quota_exceeded"}})
	_, err := testClient(server).Languages.List(context.Background(), "")
	if !errors.Is(err, ErrQuotaExceeded) {
		t.Fatalf("%v", err)
	}
	if n := len(server.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestDoesNotRetryAnAnswerMarkedXShouldRetryFalse(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(map[string]string{"X-Should-Retry": "false"}), reply{body: languagesAnswer})
	if _, err := testClient(server).Languages.List(context.Background(), ""); !errors.Is(err, ErrServiceUnavailable) {
		t.Fatalf("%v", err)
	}
	if n := len(server.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestRetriesAnAnswerMarkedXShouldRetryTrue(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 500, header: map[string]string{"X-Should-Retry": "true"}, body: map[string]string{"message": "Try again", "code": "internal"}},
		reply{body: languagesAnswer})
	if _, err := testClient(server).Languages.List(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if n := len(server.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}

func TestGivesUpAfterMaxRetriesWithTheLastError(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(nil))
	if _, err := testClient(server).Languages.List(context.Background(), ""); !errors.Is(err, ErrServiceUnavailable) {
		t.Fatalf("%v", err)
	}
	if n := len(server.requests()); n != 3 {
		t.Fatalf("%d requests", n)
	}
}

func TestMaxRetries0TurnsRetryingOff(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(nil), reply{body: languagesAnswer})
	if _, err := testClient(server).WithOptions(WithMaxRetries(0)).Languages.List(context.Background(), ""); !errors.Is(err, ErrServiceUnavailable) {
		t.Fatalf("%v", err)
	}
	if n := len(server.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestRetriesACreatingPostWithTheSameIdempotencyKey(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(nil), reply{status: 201, body: sessionAnswer})
	session, err := testClient(server).Chat.Sessions.Create(context.Background(), SessionCreateParams{PersonaID: "kasa", Title: "Hi"})
	if err != nil || session.ID != "s1" {
		t.Fatalf("%v %+v", err, session)
	}
	requests := server.requests()
	if len(requests) != 2 {
		t.Fatalf("%d requests", len(requests))
	}
	first, second := requests[0].header.Get("Idempotency-Key"), requests[1].header.Get("Idempotency-Key")
	if first == "" || first != second {
		t.Fatalf("keys %q and %q", first, second)
	}
	if string(requests[0].body) != string(requests[1].body) {
		t.Fatal("the retry sent another body")
	}
}

func TestSendsANewIdempotencyKeyForEachCall(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: sessionAnswer})
	client := testClient(server)
	for _, title := range []string{"One", "Two"} {
		if _, err := client.Chat.Sessions.Create(context.Background(), SessionCreateParams{PersonaID: "kasa", Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	requests := server.requests()
	if requests[0].header.Get("Idempotency-Key") == requests[1].header.Get("Idempotency-Key") {
		t.Fatal("two calls shared a key")
	}
}

func TestSendsTheCallersOwnIdempotencyKey(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: sessionAnswer})
	_, err := testClient(server, WithIdempotencyKeys(false)).Chat.Sessions.Create(context.Background(),
		SessionCreateParams{PersonaID: "kasa", Title: "Hi", IdempotencyKey: "k-1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := server.requests()[0].header.Get("Idempotency-Key"); got != "k-1" {
		t.Fatalf("Idempotency-Key = %q", got)
	}
}

func TestDoesNotRetryAPostSentWithoutAnIdempotencyKey(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(nil), reply{status: 201, body: sessionAnswer})
	_, err := testClient(server, WithIdempotencyKeys(false)).Chat.Sessions.Create(context.Background(), SessionCreateParams{PersonaID: "kasa", Title: "Hi"})
	if !errors.Is(err, ErrServiceUnavailable) {
		t.Fatalf("%v", err)
	}
	requests := server.requests()
	if len(requests) != 1 {
		t.Fatalf("%d requests", len(requests))
	}
	if _, sent := requests[0].header["Idempotency-Key"]; sent {
		t.Fatal("an Idempotency-Key was sent")
	}
}

func TestDoesNotRetryAPostWhoseConnectionDroppedWithoutAnIdempotencyKey(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{hangUp: true}, reply{status: 201, body: sessionAnswer})
	_, err := testClient(server, WithIdempotencyKeys(false)).Chat.Sessions.Create(context.Background(), SessionCreateParams{PersonaID: "kasa", Title: "Hi"})
	if !errors.Is(err, ErrConnection) {
		t.Fatalf("%v", err)
	}
	if n := len(server.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestRetriesAPostThatIsSafeToRepeatByNature(t *testing.T) {
	server := newLocalServer(t)
	detected := map[string]any{"language": "fr", "name": "French", "confidence": 0.9, "alternatives": []any{}}
	server.script(unavailable(nil), reply{body: detected})
	got, err := testClient(server, WithIdempotencyKeys(false)).Languages.Detect(context.Background(), "Bonjour à tous", nil)
	if err != nil || got.Language != "fr" {
		t.Fatalf("%v %+v", err, got)
	}
	if n := len(server.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}

func TestTheContextEndsAWaitBetweenTries(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 429, header: map[string]string{"Retry-After": "30"}, body: map[string]string{"message": "Slow down", "code": "rate_limited"}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	started := time.Now()
	_, err := testClient(server).Languages.List(ctx, "")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
	if elapsed := time.Since(started); elapsed > 2*time.Second {
		t.Fatalf("returned after %v", elapsed)
	}
}
