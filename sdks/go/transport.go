package kasa

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxAnswerBytes bounds an answer read whole (synthesized speech is the largest).
const maxAnswerBytes = 256 << 20

// maxErrorBytes bounds the body read from a failed answer.
const maxErrorBytes = 1 << 20

// errIdle is the cause of an attempt cancelled because nothing arrived within the timeout.
var errIdle = errors.New("kasa: no answer within the timeout")

// request is one call: where, what, and whether it is safe to send again.
type request struct {
	method string
	// path is the escaped path under the base address, or an absolute http(s) address.
	path  string
	query url.Values
	// body is sent as JSON when not nil.
	body any
	// rawBody, when not nil, is sent as it is (a file's bytes) with contentType, instead of body.
	rawBody     []byte
	contentType string
	accept      string
	// idempotent marks a call safe to repeat by its nature (a POST that only reads or stops, say); GET, PUT and
	// DELETE always are.
	idempotent bool
	// creates marks a POST that creates something: it gets an Idempotency-Key when the client adds them.
	creates bool
	// idempotencyKey is the caller's own key (wins over the one the client would make).
	idempotencyKey string
	// anonymous calls send no credential (a stored audio file's address, which may be on another host).
	anonymous bool
}

// newIdempotencyKey is a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on the platforms Go supports; a time-based key still tells calls apart.
		return fmt.Sprintf("kasa-%d", time.Now().UnixNano())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// escape makes an id safe as one path segment: it can never reach another route.
func escape(id string) string { return url.PathEscape(id) }

func (c *Client) url(path string, query url.Values) string {
	target := path
	if !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		target = c.cfg.baseURL + path
	}
	if encoded := query.Encode(); encoded != "" {
		target += "?" + encoded
	}
	return target
}

// prepared is a request made ready once per call: every retry sends the same body and Idempotency-Key.
type prepared struct {
	req       *request
	url       string
	body      []byte
	header    http.Header
	retryable bool
}

func (c *Client) prepare(req *request) (*prepared, error) {
	p := &prepared{req: req, url: c.url(req.path, req.query), header: c.cfg.header.Clone()}
	if p.header == nil {
		p.header = http.Header{}
	}
	accept := req.accept
	if accept == "" {
		accept = "application/json"
	}
	p.header.Set("Accept", accept)
	p.header.Set("User-Agent", "kasa-go/"+Version)
	if req.rawBody != nil {
		p.body = req.rawBody
		p.header.Set("Content-Type", req.contentType)
	} else if req.body != nil {
		data, err := json.Marshal(req.body)
		if err != nil {
			return nil, fmt.Errorf("kasa: encoding the request body: %w", err)
		}
		p.body = data
		p.header.Set("Content-Type", "application/json")
	}
	if !req.anonymous {
		if credential := c.creds.current(); credential != "" {
			p.header.Set("Authorization", "Bearer "+credential)
		}
	}
	key := req.idempotencyKey
	if key == "" && req.creates && c.cfg.idempotencyKeys {
		key = newIdempotencyKey()
	}
	if key != "" {
		p.header.Set("Idempotency-Key", key)
	}
	switch req.method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		p.retryable = true
	default:
		p.retryable = req.idempotent || key != ""
	}
	return p, nil
}

// idleBody is an answer's body whose reads must each bring something within the timeout; Close hangs up.
type idleBody struct {
	body    io.ReadCloser
	ctx     context.Context
	cancel  context.CancelCauseFunc
	timer   *time.Timer
	timeout time.Duration
	baseURL string
}

// Read reads on, restarting the wait; a wait that ran out is a timeout error.
func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 && b.timer != nil {
		b.timer.Reset(b.timeout)
	}
	if err != nil && err != io.EOF && errors.Is(context.Cause(b.ctx), errIdle) {
		return n, timeoutError(b.baseURL, err)
	}
	return n, err
}

// Close stops the wait and hangs up.
func (b *idleBody) Close() error {
	if b.timer != nil {
		b.timer.Stop()
	}
	// Cancelling the request's context closes its connection: the server sees the reader gone.
	b.cancel(context.Canceled)
	return b.body.Close()
}

func timeoutError(baseURL string, cause error) *ConnectionError {
	return newConnectionError(CodeTimeout, fmt.Sprintf("The Kasa API at %s did not answer in time.", baseURL), "", cause)
}

// attempt sends the call once. Its answer's body (any status) is an idleBody that the caller closes.
func (c *Client) attempt(ctx context.Context, p *prepared) (*http.Response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	var timer *time.Timer
	if c.cfg.timeout > 0 {
		timer = time.AfterFunc(c.cfg.timeout, func() { cancel(errIdle) })
	}
	var body io.Reader
	if p.body != nil {
		body = bytes.NewReader(p.body)
	}
	httpReq, err := http.NewRequestWithContext(actx, p.req.method, p.url, body)
	if err != nil {
		cancel(nil)
		return nil, fmt.Errorf("kasa: building the request: %w", err)
	}
	httpReq.Header = p.header.Clone()
	resp, err := c.cfg.httpClient.Do(httpReq)
	if err != nil {
		if timer != nil {
			timer.Stop()
		}
		idle := errors.Is(context.Cause(actx), errIdle)
		cancel(nil)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if idle {
			return nil, timeoutError(c.cfg.baseURL, err)
		}
		return nil, newConnectionError(CodeNetworkError, fmt.Sprintf("Could not reach the Kasa API at %s: %v", c.cfg.baseURL, unwrapURLError(err)), "", err)
	}
	resp.Body = &idleBody{body: resp.Body, ctx: actx, cancel: cancel, timer: timer, timeout: c.cfg.timeout, baseURL: c.cfg.baseURL}
	return resp, nil
}

// unwrapURLError drops net/http's "Get \"url\": " prefix, which repeats what the message already says.
func unwrapURLError(err error) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err
	}
	return err
}

// send sends the call, retrying what may be retried, and gives the OK answer with its body unread (the caller
// closes it), or the error of the last attempt.
func (c *Client) send(ctx context.Context, req *request) (*http.Response, error) {
	return c.exchange(ctx, req, false)
}

// exchange is send; with whole, the body is read within the attempt (and a failure to read it is retried like a
// failed connection), and handed back as an in-memory body.
func (c *Client) exchange(ctx context.Context, req *request, whole bool) (*http.Response, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	p, err := c.prepare(req)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.attempt(ctx, p)
		if err == nil {
			if resp.StatusCode >= 200 && resp.StatusCode < 300 {
				if !whole {
					return resp, nil
				}
				data, readErr := readAll(resp.Body, maxAnswerBytes)
				resp.Body.Close()
				if readErr == nil {
					resp.Body = io.NopCloser(bytes.NewReader(data))
					return resp, nil
				}
				err = c.readFailure(readErr, resp)
			} else {
				data, _ := readAll(resp.Body, maxErrorBytes)
				resp.Body.Close()
				err = errorFromResponse(resp.StatusCode, data, resp.Header, c.cfg.now())
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		wait, retry := c.cfg.retry.delay(err, attempt, p.retryable, c.cfg.now(), c.cfg.random)
		if !retry {
			return nil, err
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// readFailure is the error for an OK answer whose body broke off.
func (c *Client) readFailure(err error, resp *http.Response) error {
	var connErr *ConnectionError
	if errors.As(err, &connErr) {
		return connErr
	}
	if errors.Is(err, errTooLarge) {
		return err
	}
	return newConnectionError(CodeNetworkError, fmt.Sprintf("The answer from the Kasa API at %s broke off: %v", c.cfg.baseURL, err),
		resp.Header.Get("X-Request-Id"), err)
}

var errTooLarge = errors.New("kasa: the answer is larger than the client reads")

// readAll reads at most limit bytes.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}

// sleep waits, or returns the context's error when it ends first.
func sleep(ctx context.Context, wait time.Duration) error {
	if wait <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call sends the call and decodes its JSON answer into out (nothing for an empty answer, or a nil out).
func (c *Client) call(ctx context.Context, req *request, out any) error {
	resp, err := c.exchange(ctx, req, true)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("kasa: reading the answer of %s %s: %w", req.method, req.path, err)
	}
	return nil
}
