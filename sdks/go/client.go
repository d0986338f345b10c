package kasa

import (
	"math/rand"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Version is the version of this SDK; the client sends it in its User-Agent ("kasa-go/1.5.0").
const Version = "1.5.0"

// DefaultBaseURL is the address of a platform started locally with npm start.
const DefaultBaseURL = "http://localhost:8080"

// DefaultTimeout is the longest the client waits for an answer, and then for each next piece of it (a stream's
// next event: Kasa sends a keep-alive every 15 s on long replies).
const DefaultTimeout = 60 * time.Second

// DefaultConnectTimeout is the longest the default HTTP client waits to connect.
const DefaultConnectTimeout = 10 * time.Second

// Client is a client of the Kasa API. Make one per credential with NewClient and share it between goroutines: it
// keeps a pool of connections. Every call takes a context.Context, which cancels it.
type Client struct {
	// Auth signs up, in and out, and says who is signed in.
	Auth *AuthService
	// Personas lists the personas to chat with.
	Personas *PersonasService
	// Chat holds the chat sessions and their messages (sent whole or streamed).
	Chat *ChatService
	// Attachments uploads, reads and deletes the images and documents sent with messages (Pro and Enterprise).
	Attachments *AttachmentsService
	// Completions is the OpenAI-compatible API: chat completions, whole or streamed, and the models.
	Completions *CompletionsService
	// Voice speaks text and lists the voices.
	Voice *VoiceService
	// Video makes videos from a prompt (Enterprise).
	Video *VideoService
	// Languages lists the language catalogue and detects a text's language.
	Languages *LanguagesService
	// Geo says where an IP address appears to be.
	Geo *GeoService
	// APIKeys creates, lists and revokes the caller's API keys (with an access token only).
	APIKeys *APIKeysService
	// Analytics gives the caller's usage: calls, quota, sessions, personas and languages.
	Analytics *AnalyticsService

	cfg   config
	creds *credentials
}

// config is what a client was set up with; WithOptions makes a changed copy.
type config struct {
	baseURL         string
	apiKey          string
	token           string
	httpClient      *http.Client
	timeout         time.Duration
	retry           RetryPolicy
	header          http.Header
	idempotencyKeys bool
	maxEventBytes   int
	random          func() float64
	now             func() time.Time
}

// credentials are the token and the key, shared by a client and the copies WithOptions makes of it.
type credentials struct {
	mu     sync.RWMutex
	apiKey string
	token  string
}

// current is the credential to send: a signed-in token wins, as account routes refuse API keys.
func (c *credentials) current() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.token != "" {
		return c.token
	}
	return c.apiKey
}

// Option sets up a Client (NewClient) or a copy of one (Client.WithOptions).
type Option func(*config)

// WithAPIKey sets the API key ("ksk_…") the client sends; the default is $KASA_API_KEY. A key is for the chat,
// voice and analytics APIs (it has one or more of the scopes chat, voice, analytics). Ignored by WithOptions:
// a copy shares its client's credentials.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithToken sets an access token (from signing in) the client sends; it wins over the API key. Ignored by
// WithOptions: a copy shares its client's credentials (use SetToken).
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithBaseURL sets the API's address, e.g. "https://kasa.example"; the default is $KASA_BASE_URL, else
// DefaultBaseURL.
func WithBaseURL(url string) Option { return func(c *config) { c.baseURL = url } }

// WithHTTPClient sets the HTTP client the calls go through (proxies, certificates, tracing). Leave its Timeout at
// 0: a streamed reply may last minutes, and WithTimeout bounds each wait instead.
func WithHTTPClient(client *http.Client) Option { return func(c *config) { c.httpClient = client } }

// WithTimeout sets the longest wait for an answer, and then for each next piece of it (DefaultTimeout); 0 or less
// waits for ever (the context can still end a call).
func WithTimeout(timeout time.Duration) Option { return func(c *config) { c.timeout = timeout } }

// WithMaxRetries sets how often a call that is safe to repeat is retried (default 2); 0 turns retrying off.
func WithMaxRetries(retries int) Option {
	return func(c *config) {
		if retries < 0 {
			retries = 0
		}
		c.retry.MaxRetries = retries
	}
}

// WithMaxRetryDelay sets the longest single wait between tries (default 60 s). An answer whose Retry-After asks
// for longer is returned at once.
func WithMaxRetryDelay(delay time.Duration) Option {
	return func(c *config) {
		if delay > 0 {
			c.retry.MaxRetryDelay = delay
		}
	}
}

// WithRetryPolicy sets every knob of the retries at once; durations left at 0 take the defaults.
func WithRetryPolicy(policy RetryPolicy) Option {
	return func(c *config) { c.retry = policy.withDefaults() }
}

// WithHeader adds a header to every call (a trace id, say).
func WithHeader(name, value string) Option {
	return func(c *config) {
		header := c.header.Clone()
		if header == nil {
			header = http.Header{}
		}
		header.Set(name, value)
		c.header = header
	}
}

// WithIdempotencyKeys turns the automatic Idempotency-Key of creating calls on (the default) or off. Without a
// key a creating call is never retried; a key given in the call's parameters is sent either way.
func WithIdempotencyKeys(on bool) Option { return func(c *config) { c.idempotencyKeys = on } }

// WithMaxEventBytes bounds a line, and one event's data, of the streams the client reads (DefaultMaxEventBytes).
func WithMaxEventBytes(limit int) Option {
	return func(c *config) {
		if limit > 0 {
			c.maxEventBytes = limit
		}
	}
}

// defaultHTTPClient connects within DefaultConnectTimeout and has no overall timeout (streams may be long).
func defaultHTTPClient() *http.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	dialer := &net.Dialer{Timeout: DefaultConnectTimeout, KeepAlive: 30 * time.Second}
	transport.DialContext = dialer.DialContext
	transport.TLSHandshakeTimeout = DefaultConnectTimeout
	return &http.Client{Transport: transport}
}

// NewClient makes a client. Without options it calls $KASA_BASE_URL (else http://localhost:8080) with the API key
// in $KASA_API_KEY, if any:
//
//	client := kasa.NewClient(kasa.WithAPIKey(os.Getenv("KASA_API_KEY")), kasa.WithBaseURL("https://kasa.example"))
func NewClient(opts ...Option) *Client {
	cfg := config{
		baseURL:         os.Getenv("KASA_BASE_URL"),
		apiKey:          os.Getenv("KASA_API_KEY"),
		timeout:         DefaultTimeout,
		retry:           DefaultRetryPolicy(),
		header:          http.Header{},
		idempotencyKeys: true,
		maxEventBytes:   DefaultMaxEventBytes,
		random:          rand.Float64,
		now:             time.Now,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	if strings.TrimSpace(cfg.baseURL) == "" {
		cfg.baseURL = DefaultBaseURL
	}
	cfg.baseURL = strings.TrimRight(strings.TrimSpace(cfg.baseURL), "/")
	if cfg.httpClient == nil {
		cfg.httpClient = defaultHTTPClient()
	}
	return newClient(cfg, &credentials{apiKey: cfg.apiKey, token: cfg.token})
}

func newClient(cfg config, creds *credentials) *Client {
	c := &Client{cfg: cfg, creds: creds}
	c.Auth = &AuthService{client: c}
	c.Personas = &PersonasService{client: c}
	c.Chat = &ChatService{Sessions: &SessionsService{client: c}, Messages: &MessagesService{client: c}}
	c.Attachments = &AttachmentsService{client: c}
	c.Completions = &CompletionsService{client: c}
	c.Voice = &VoiceService{client: c}
	c.Video = &VideoService{client: c}
	c.Languages = &LanguagesService{client: c}
	c.Geo = &GeoService{client: c}
	c.APIKeys = &APIKeysService{client: c}
	c.Analytics = &AnalyticsService{client: c}
	return c
}

// WithOptions gives the same client (connections and credentials shared: signing in on one signs in both) with
// other settings, e.g. client.WithOptions(kasa.WithTimeout(5*time.Second), kasa.WithMaxRetries(0)).
// WithAPIKey and WithToken are ignored here.
func (c *Client) WithOptions(opts ...Option) *Client {
	cfg := c.cfg
	cfg.header = c.cfg.header.Clone()
	for _, opt := range opts {
		opt(&cfg)
	}
	cfg.baseURL = strings.TrimRight(strings.TrimSpace(cfg.baseURL), "/")
	if cfg.baseURL == "" {
		cfg.baseURL = c.cfg.baseURL
	}
	if cfg.httpClient == nil {
		cfg.httpClient = c.cfg.httpClient
	}
	return newClient(cfg, c.creds)
}

// BaseURL is the API's address the client calls.
func (c *Client) BaseURL() string { return c.cfg.baseURL }

// Token is the access token the client sends, if any ("" when it sends the API key or nothing).
func (c *Client) Token() string {
	c.creds.mu.RLock()
	defer c.creds.mu.RUnlock()
	return c.creds.token
}

// SetToken signs later calls with token ("": back to the API key, if any). Signing in and out call it.
func (c *Client) SetToken(token string) {
	c.creds.mu.Lock()
	defer c.creds.mu.Unlock()
	c.creds.token = token
}
