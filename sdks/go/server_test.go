package kasa

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// reply is what the local server answers with.
type reply struct {
	status int
	header map[string]string
	// body is written as is when []byte or string, else as JSON.
	body any
	// chunks are written and flushed one by one; a time.Duration between them waits.
	chunks []any
	// delay waits before answering at all.
	delay time.Duration
	// hangUp closes the connection without an answer.
	hangUp bool
	// drop closes the connection after the chunks, without ending the body.
	drop bool
	// endless writes token events every interval until the reader hangs up.
	endless time.Duration
}

// recorded is a request the local server received.
type recorded struct {
	method string
	path   string
	header http.Header
	body   []byte
}

func (r recorded) json(t *testing.T) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("the request body is not a JSON object: %v (%q)", err, r.body)
	}
	return out
}

// localServer is a real HTTP server on the loopback interface that answers from a script and records what it got:
// the edge of the SDK, faked so that each failure can be made on purpose.
type localServer struct {
	*httptest.Server
	mu       sync.Mutex
	received []recorded
	// replies are given in order; the last one is repeated.
	replies []reply
	// handler, when set, picks the reply instead.
	handler    func(recorded) reply
	clientGone chan struct{}
	goneOnce   sync.Once
}

func newLocalServer(t *testing.T) *localServer {
	t.Helper()
	s := &localServer{clientGone: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *localServer) script(replies ...reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = replies
}

func (s *localServer) answer(handler func(recorded) reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = handler
}

func (s *localServer) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.received...)
}

// waitForClientGone reports whether the reader of an endless answer hung up within the wait.
func (s *localServer) waitForClientGone(wait time.Duration) bool {
	select {
	case <-s.clientGone:
		return true
	case <-time.After(wait):
		return false
	}
}

func (s *localServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := recorded{method: r.Method, path: r.URL.RequestURI(), header: r.Header.Clone(), body: body}
	s.mu.Lock()
	s.received = append(s.received, req)
	var next reply
	switch {
	case s.handler != nil:
		handler := s.handler
		s.mu.Unlock()
		next = handler(req)
		s.mu.Lock()
	case len(s.replies) > 0:
		next = s.replies[0]
		if len(s.replies) > 1 {
			s.replies = s.replies[1:]
		}
	default:
		next = reply{status: 500, body: map[string]string{"message": "no reply scripted"}}
	}
	s.mu.Unlock()

	if next.delay > 0 {
		select {
		case <-time.After(next.delay):
		case <-r.Context().Done():
			return
		}
	}
	if next.hangUp {
		panic(http.ErrAbortHandler)
	}
	for name, value := range next.header {
		w.Header().Set(name, value)
	}
	status := next.status
	if status == 0 {
		status = 200
	}
	flusher := w.(http.Flusher)
	switch {
	case next.chunks != nil || next.endless > 0:
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		w.WriteHeader(status)
		flusher.Flush()
		for _, chunk := range next.chunks {
			switch c := chunk.(type) {
			case time.Duration:
				select {
				case <-time.After(c):
				case <-r.Context().Done():
					return
				}
			case string:
				_, _ = io.WriteString(w, c)
				flusher.Flush()
			}
		}
		if next.endless > 0 {
			s.writeEndless(w, r, flusher, next.endless)
			return
		}
		if next.drop {
			panic(http.ErrAbortHandler)
		}
	case next.body == nil:
		w.WriteHeader(status)
	default:
		var data []byte
		switch b := next.body.(type) {
		case []byte:
			data = b
		case string:
			data = []byte(b)
		default:
			data, _ = json.Marshal(b)
			if w.Header().Get("Content-Type") == "" {
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
			}
		}
		w.WriteHeader(status)
		_, _ = w.Write(data)
	}
}

func (s *localServer) writeEndless(w http.ResponseWriter, r *http.Request, flusher http.Flusher, interval time.Duration) {
	defer s.goneOnce.Do(func() { close(s.clientGone) })
	for n := 1; ; n++ {
		if _, err := fmt.Fprintf(w, "event: token\ndata: {\"text\":\"w%d \"}\n\n", n); err != nil {
			return
		}
		flusher.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(interval):
		}
	}
}

// fastRetries waits milliseconds, so that the tests wait for nothing they do not need to.
var fastRetries = RetryPolicy{MaxRetries: 2, MaxRetryDelay: 60 * time.Second, BaseDelay: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond}

// testClient calls the local server with fast retries; opts come after, so they win.
func testClient(s *localServer, opts ...Option) *Client {
	all := append([]Option{WithBaseURL(s.URL), WithAPIKey(""), WithRetryPolicy(fastRetries)}, opts...)
	return NewClient(all...)
}
