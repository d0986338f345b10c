//! The client: its set-up, its credentials, and how a call is sent, retried and read.

use std::fmt;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use reqwest::{Method, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::resources::{
    Analytics, ApiKeys, Attachments, Auth, Completions, Geo, Languages, Messages, Personas, Sessions, Speech, Video,
};
use crate::retry::{random_unit, RetryPolicy};
use crate::sse::DEFAULT_MAX_EVENT_BYTES;

/// The address of a platform started locally with `npm start`.
pub const DEFAULT_BASE_URL: &str = "http://localhost:8080";
/// The longest the client waits for an answer, and then for each next piece of it (a stream's next event: Kasa
/// sends a keep-alive every 15 s on long replies).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// The longest the client waits to connect.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest answer read whole (synthesized speech and videos are the largest).
const MAX_ANSWER_BYTES: usize = 256 << 20;
/// The longest body read from a failed answer.
const MAX_ERROR_BYTES: usize = 1 << 20;

/// A client of the Kasa API. Make one per credential and clone it freely: clones share the connection pool and the
/// credentials (signing in on one signs in all). Every call is a future; dropping it cancels the call (and hangs up
/// a stream).
///
/// ```no_run
/// # async fn run() -> kasa::Result<()> {
/// let client = kasa::Client::builder().api_key("ksk_…").base_url("https://kasa.example").build()?;
/// for persona in client.personas().list().await? {
///     println!("{}: {}", persona.id, persona.expertise);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Client {
    pub(crate) config: Arc<Config>,
    credentials: Arc<RwLock<Credentials>>,
}

pub(crate) struct Config {
    pub(crate) base_url: String,
    http: reqwest::Client,
    pub(crate) timeout: Option<Duration>,
    retry: RetryPolicy,
    headers: HeaderMap,
    idempotency_keys: bool,
    pub(crate) max_event_bytes: usize,
}

#[derive(Default)]
struct Credentials {
    api_key: Option<String>,
    token: Option<String>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.config.base_url)
            .field("timeout", &self.config.timeout)
            .field("retry", &self.config.retry)
            .finish_non_exhaustive()
    }
}

/// Sets up a [`Client`]: `Client::builder().api_key(...).base_url(...).build()`.
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    base_url: Option<String>,
    api_key: Option<String>,
    token: Option<String>,
    timeout: Option<Duration>,
    connect_timeout: Duration,
    retry: RetryPolicy,
    headers: Vec<(String, String)>,
    idempotency_keys: bool,
    max_event_bytes: usize,
    http: Option<reqwest::Client>,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            base_url: None,
            api_key: None,
            token: None,
            timeout: Some(DEFAULT_TIMEOUT),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            retry: RetryPolicy::default(),
            headers: Vec::new(),
            idempotency_keys: true,
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
            http: None,
        }
    }
}

impl ClientBuilder {
    /// The API's address, e.g. `"https://kasa.example"`; the default is `$KASA_BASE_URL`, else
    /// [`DEFAULT_BASE_URL`].
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// The API key (`"ksk_…"`) the client sends; the default is `$KASA_API_KEY`. An empty key sends none. A key
    /// is for the chat, voice and analytics APIs (it has one or more of the scopes chat, voice, analytics).
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// An access token (from signing in) the client sends; it wins over the API key.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// The longest wait for an answer, and then for each next piece of it ([`DEFAULT_TIMEOUT`]); `None` waits
    /// for ever (dropping the call's future still ends it).
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// The longest wait to connect ([`DEFAULT_CONNECT_TIMEOUT`]); ignored with [`http_client`](Self::http_client).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How often a call that is safe to repeat is retried (default 2); 0 turns retrying off.
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.retry.max_retries = retries;
        self
    }

    /// The longest single wait between tries (default 60 s). An answer whose `Retry-After` asks for longer is
    /// returned at once.
    pub fn max_retry_delay(mut self, delay: Duration) -> Self {
        if !delay.is_zero() {
            self.retry.max_retry_delay = delay;
        }
        self
    }

    /// Every knob of the retries at once; durations left at zero take the defaults.
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy.with_defaults();
        self
    }

    /// A header sent with every call (a trace id, say).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Turns the automatic `Idempotency-Key` of creating calls on (the default) or off. Without a key a creating
    /// call is never retried; a key given in the call's parameters is sent either way.
    pub fn idempotency_keys(mut self, on: bool) -> Self {
        self.idempotency_keys = on;
        self
    }

    /// The bound on a line, and on one event's data, of the streams the client reads
    /// ([`DEFAULT_MAX_EVENT_BYTES`]).
    pub fn max_event_bytes(mut self, limit: usize) -> Self {
        if limit > 0 {
            self.max_event_bytes = limit;
        }
        self
    }

    /// The `reqwest::Client` the calls go through (proxies, certificates). Give it no overall timeout: a streamed
    /// reply may last minutes, and [`timeout`](Self::timeout) bounds each wait instead.
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.http = Some(client);
        self
    }

    /// Makes the client. Fails (with [`ErrorKind::Config`]) when the base address is not an http(s) URL, a header
    /// cannot be sent, or the TLS back-end cannot start.
    pub fn build(self) -> Result<Client> {
        let from_env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let base_url = self
            .base_url
            .filter(|u| !u.trim().is_empty())
            .or_else(|| from_env("KASA_BASE_URL"))
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_string());
        let base_url = base_url.trim().trim_end_matches('/').to_string();
        match url::Url::parse(&base_url) {
            Ok(parsed) if parsed.scheme() == "http" || parsed.scheme() == "https" => {}
            _ => return Err(Error::config(format!("The base address {base_url:?} is not an http(s) URL."))),
        }
        let mut headers = HeaderMap::new();
        for (name, value) in &self.headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| Error::config(format!("The header name {name:?} cannot be sent.")).with_source(e))?;
            let value = HeaderValue::from_str(value)
                .map_err(|e| Error::config(format!("The value of the header {name} cannot be sent.")).with_source(e))?;
            headers.insert(name, value);
        }
        let http = match self.http {
            Some(client) => client,
            None => reqwest::Client::builder()
                .connect_timeout(self.connect_timeout)
                .tcp_keepalive(Some(Duration::from_secs(30)))
                .build()
                .map_err(|e| Error::config("The HTTP client could not be made.").with_source(e))?,
        };
        let api_key = match self.api_key {
            Some(key) => Some(key),
            None => from_env("KASA_API_KEY"),
        };
        let credentials =
            Credentials { api_key: api_key.filter(|k| !k.is_empty()), token: self.token.filter(|t| !t.is_empty()) };
        Ok(Client {
            config: Arc::new(Config {
                base_url,
                http,
                timeout: self.timeout.filter(|t| !t.is_zero()),
                retry: self.retry,
                headers,
                idempotency_keys: self.idempotency_keys,
                max_event_bytes: self.max_event_bytes,
            }),
            credentials: Arc::new(RwLock::new(credentials)),
        })
    }
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

impl Client {
    /// A client of `$KASA_BASE_URL` (else [`DEFAULT_BASE_URL`]) with the API key in `$KASA_API_KEY`, if any.
    ///
    /// # Panics
    ///
    /// When `$KASA_BASE_URL` is not an http(s) URL or the TLS back-end cannot start; [`Client::builder`] returns
    /// those as errors.
    pub fn new() -> Client {
        Client::builder().build().expect("kasa: the client could not be made")
    }

    /// Sets up a client.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The API's address the client calls.
    pub fn base_url(&self) -> &str {
        &self.config.base_url
    }

    /// The access token the client sends, if any.
    pub fn token(&self) -> Option<String> {
        self.credentials.read().unwrap_or_else(|e| e.into_inner()).token.clone()
    }

    /// Signs later calls with `token` (`None`: back to the API key, if any). Signing in and out call it.
    pub fn set_token(&self, token: Option<String>) {
        self.credentials.write().unwrap_or_else(|e| e.into_inner()).token = token.filter(|t| !t.is_empty());
    }

    /// The credential to send: a signed-in token wins, as account routes refuse API keys.
    fn credential(&self) -> Option<String> {
        let credentials = self.credentials.read().unwrap_or_else(|e| e.into_inner());
        credentials.token.clone().or_else(|| credentials.api_key.clone())
    }

    fn with_config(&self, change: impl FnOnce(&mut Config)) -> Client {
        let mut config = Config {
            base_url: self.config.base_url.clone(),
            http: self.config.http.clone(),
            timeout: self.config.timeout,
            retry: self.config.retry,
            headers: self.config.headers.clone(),
            idempotency_keys: self.config.idempotency_keys,
            max_event_bytes: self.config.max_event_bytes,
        };
        change(&mut config);
        Client { config: Arc::new(config), credentials: Arc::clone(&self.credentials) }
    }

    /// The same client (connections and credentials shared) with another timeout.
    pub fn with_timeout(&self, timeout: Option<Duration>) -> Client {
        self.with_config(|c| c.timeout = timeout.filter(|t| !t.is_zero()))
    }

    /// The same client (connections and credentials shared) with another number of retries, e.g.
    /// `client.with_max_retries(0)` for a call that must not be sent twice.
    pub fn with_max_retries(&self, retries: u32) -> Client {
        self.with_config(|c| c.retry.max_retries = retries)
    }

    /// The same client (connections and credentials shared) with another retry policy.
    pub fn with_retry_policy(&self, policy: RetryPolicy) -> Client {
        self.with_config(|c| c.retry = policy.with_defaults())
    }

    /// Signs up, in and out, and says who is signed in.
    pub fn auth(&self) -> Auth<'_> {
        Auth { client: self }
    }

    /// The personas to chat with.
    pub fn personas(&self) -> Personas<'_> {
        Personas { client: self }
    }

    /// Chat sessions: create, list, read, rename, delete, and share as a read-only link.
    pub fn sessions(&self) -> Sessions<'_> {
        Sessions { client: self }
    }

    /// The messages of a session: list, send (whole or streamed), follow again, stop.
    pub fn messages(&self) -> Messages<'_> {
        Messages { client: self }
    }

    /// The images and documents sent with messages (Pro and Enterprise): upload, read back, delete.
    pub fn attachments(&self) -> Attachments<'_> {
        Attachments { client: self }
    }

    /// The OpenAI-compatible API: chat completions, whole or streamed, and the models.
    pub fn completions(&self) -> Completions<'_> {
        Completions { client: self }
    }

    /// Speech and the voices.
    pub fn voice(&self) -> Speech<'_> {
        Speech { client: self }
    }

    /// Videos made from a prompt (Enterprise).
    pub fn video(&self) -> Video<'_> {
        Video { client: self }
    }

    /// The language catalogue and language detection.
    pub fn languages(&self) -> Languages<'_> {
        Languages { client: self }
    }

    /// Where an IP address appears to be.
    pub fn geo(&self) -> Geo<'_> {
        Geo { client: self }
    }

    /// The caller's API keys (with an access token only).
    pub fn api_keys(&self) -> ApiKeys<'_> {
        ApiKeys { client: self }
    }

    /// The caller's usage: calls, quota, sessions, personas and languages.
    pub fn analytics(&self) -> Analytics<'_> {
        Analytics { client: self }
    }
}

/// A random UUID (version 4): a new `Idempotency-Key`.
pub fn new_idempotency_key() -> String {
    let mut b = [0u8; 16];
    if getrandom::getrandom(&mut b).is_err() {
        // The operating system's random source does not fail where Rust runs; the time still tells calls apart.
        let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        b = nanos.to_le_bytes();
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// Makes an id safe as one path segment: it can never reach another route.
pub(crate) fn escape(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// One call: where, what, and whether it is safe to send again.
pub(crate) struct Call {
    method: Method,
    /// The escaped path under the base address, or an absolute http(s) address.
    path: String,
    query: Vec<(&'static str, String)>,
    body: Option<Result<Vec<u8>, serde_json::Error>>,
    /// The body's Content-Type when it is not JSON (a file's bytes sent as they are).
    content_type: Option<String>,
    accept: &'static str,
    /// Safe to repeat by its nature (a POST that only reads or stops, say); GET, PUT and DELETE always are.
    idempotent: bool,
    /// A POST that creates something: it gets an `Idempotency-Key` when the client adds them.
    creates: bool,
    /// The caller's own key (wins over the one the client would make).
    idempotency_key: Option<String>,
    /// Sends no credential (a stored file's address, which may be on another host).
    anonymous: bool,
}

impl Call {
    pub(crate) fn new(method: Method, path: impl Into<String>) -> Call {
        Call {
            method,
            path: path.into(),
            query: Vec::new(),
            body: None,
            content_type: None,
            accept: "application/json",
            idempotent: false,
            creates: false,
            idempotency_key: None,
            anonymous: false,
        }
    }

    pub(crate) fn get(path: impl Into<String>) -> Call {
        Call::new(Method::GET, path)
    }

    pub(crate) fn post(path: impl Into<String>) -> Call {
        Call::new(Method::POST, path)
    }

    pub(crate) fn json(mut self, body: &impl Serialize) -> Call {
        self.body = Some(serde_json::to_vec(body));
        self
    }

    /// A body sent as it is (a file's bytes), with its Content-Type, instead of JSON.
    pub(crate) fn raw(mut self, body: Vec<u8>, content_type: impl Into<String>) -> Call {
        self.body = Some(Ok(body));
        self.content_type = Some(content_type.into());
        self
    }

    pub(crate) fn query(mut self, query: Vec<(&'static str, String)>) -> Call {
        self.query = query;
        self
    }

    pub(crate) fn accept(mut self, accept: &'static str) -> Call {
        self.accept = accept;
        self
    }

    pub(crate) fn idempotent(mut self) -> Call {
        self.idempotent = true;
        self
    }

    pub(crate) fn creates(mut self, key: Option<String>) -> Call {
        self.creates = true;
        self.idempotency_key = key.filter(|k| !k.is_empty());
        self
    }

    pub(crate) fn anonymous(mut self) -> Call {
        self.anonymous = true;
        self
    }
}

/// A call made ready once: every retry sends the same body and `Idempotency-Key`.
struct Prepared {
    method: Method,
    url: String,
    headers: HeaderMap,
    body: Option<Vec<u8>>,
    retryable: bool,
}

/// An OK answer: its body unread (a stream), or read whole.
pub(crate) struct Whole {
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

enum Answer {
    Open(Response),
    Whole(Whole),
}

/// `future`, or a timeout error when it takes longer than `timeout`.
pub(crate) async fn within<T>(
    timeout: Option<Duration>,
    base_url: &str,
    future: impl std::future::Future<Output = T>,
) -> Result<T> {
    match timeout {
        None => Ok(future.await),
        Some(limit) => tokio::time::timeout(limit, future).await.map_err(|_| timeout_error(base_url)),
    }
}

pub(crate) fn timeout_error(base_url: &str) -> Error {
    Error::connection(ErrorKind::Timeout, format!("The Kasa API at {base_url} did not answer in time."))
}

/// The innermost cause of an error: reqwest's outer layers repeat the address.
fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

pub(crate) fn request_id_of(headers: &HeaderMap) -> Option<String> {
    headers.get("x-request-id").and_then(|v| v.to_str().ok()).filter(|v| !v.is_empty()).map(str::to_string)
}

impl Client {
    fn url(&self, path: &str, query: &[(&'static str, String)]) -> String {
        let mut target = if path.starts_with("http://") || path.starts_with("https://") {
            path.to_string()
        } else {
            format!("{}{}", self.config.base_url, path)
        };
        if !query.is_empty() {
            let mut encoded = url::form_urlencoded::Serializer::new(String::new());
            for (name, value) in query {
                encoded.append_pair(name, value);
            }
            target.push(if target.contains('?') { '&' } else { '?' });
            target.push_str(&encoded.finish());
        }
        target
    }

    fn prepare(&self, call: Call) -> Result<Prepared> {
        let mut headers = self.config.headers.clone();
        headers.insert(ACCEPT, HeaderValue::from_static(call.accept));
        headers.insert(USER_AGENT, HeaderValue::from_static(concat!("kasa-rust/", env!("CARGO_PKG_VERSION"))));
        let body = match call.body {
            Some(Ok(bytes)) => {
                let content_type = match call.content_type {
                    Some(declared) => HeaderValue::from_str(&declared)
                        .map_err(|e| Error::config("The content type cannot be sent in a header.").with_source(e))?,
                    None => HeaderValue::from_static("application/json"),
                };
                headers.insert(CONTENT_TYPE, content_type);
                Some(bytes)
            }
            Some(Err(e)) => return Err(Error::config("The request body could not be encoded as JSON.").with_source(e)),
            None => None,
        };
        if !call.anonymous {
            if let Some(credential) = self.credential() {
                let value = HeaderValue::from_str(&format!("Bearer {credential}"))
                    .map_err(|e| Error::config("The credential cannot be sent in a header.").with_source(e))?;
                headers.insert(AUTHORIZATION, value);
            }
        }
        let key = match call.idempotency_key {
            Some(key) => Some(key),
            None if call.creates && self.config.idempotency_keys => Some(new_idempotency_key()),
            None => None,
        };
        if let Some(key) = &key {
            let value = HeaderValue::from_str(key)
                .map_err(|e| Error::config("The idempotency key cannot be sent in a header.").with_source(e))?;
            headers.insert("idempotency-key", value);
        }
        let retryable =
            matches!(call.method, Method::GET | Method::HEAD | Method::OPTIONS | Method::PUT | Method::DELETE)
                || call.idempotent
                || key.is_some();
        Ok(Prepared { url: self.url(&call.path, &call.query), method: call.method, headers, body, retryable })
    }

    /// Sends the call once.
    async fn attempt(&self, p: &Prepared) -> Result<Response> {
        let mut request = self.config.http.request(p.method.clone(), &p.url).headers(p.headers.clone());
        if let Some(body) = &p.body {
            request = request.body(body.clone());
        }
        let base = &self.config.base_url;
        match within(self.config.timeout, base, request.send()).await? {
            Ok(response) => Ok(response),
            Err(e) if e.is_timeout() => Err(timeout_error(base).with_source(e)),
            Err(e) if e.is_builder() => {
                Err(Error::config(format!("The request to {} is not valid.", p.url)).with_source(e))
            }
            Err(e) => {
                let cause = root_cause(&e);
                Err(Error::connection(
                    ErrorKind::Connection,
                    format!("Could not reach the Kasa API at {base}: {cause}"),
                )
                .with_source(e))
            }
        }
    }

    /// Reads a body to its end, each piece within the timeout, at most `limit` bytes.
    pub(crate) async fn read_body(&self, response: &mut Response, limit: usize) -> Result<Vec<u8>> {
        let mut data = Vec::new();
        let base = &self.config.base_url;
        loop {
            match within(self.config.timeout, base, response.chunk()).await {
                Ok(Ok(Some(chunk))) => {
                    if data.len() + chunk.len() > limit {
                        return Err(Error::decode(format!(
                            "The answer is longer than the client reads ({limit} bytes)."
                        )));
                    }
                    data.extend_from_slice(&chunk);
                }
                Ok(Ok(None)) => return Ok(data),
                Ok(Err(e)) => {
                    let cause = root_cause(&e);
                    return Err(Error::connection(
                        ErrorKind::Connection,
                        format!("The answer from the Kasa API at {base} broke off: {cause}"),
                    )
                    .with_source(e)
                    .with_request_id(request_id_of(response.headers())));
                }
                Err(timeout) => return Err(timeout.with_request_id(request_id_of(response.headers()))),
            }
        }
    }

    /// Sends the call, retrying what may be retried; with `whole`, the body is read within the attempt (a failure
    /// to read it is retried like a failed connection).
    async fn exchange(&self, call: Call, whole: bool) -> Result<Answer> {
        let p = self.prepare(call)?;
        let mut attempt = 0;
        loop {
            let error = match self.attempt(&p).await {
                Ok(mut response) if response.status().is_success() => {
                    if !whole {
                        return Ok(Answer::Open(response));
                    }
                    match self.read_body(&mut response, MAX_ANSWER_BYTES).await {
                        Ok(body) => return Ok(Answer::Whole(Whole { headers: response.headers().clone(), body })),
                        Err(e) => e,
                    }
                }
                Ok(mut response) => {
                    let status = response.status().as_u16();
                    let body = self.read_body(&mut response, MAX_ERROR_BYTES).await.unwrap_or_default();
                    Error::from_response(status, &body, response.headers().clone(), SystemTime::now())
                }
                Err(e) => e,
            };
            match self.config.retry.delay(&error, attempt, p.retryable, SystemTime::now(), random_unit()) {
                Some(wait) => tokio::time::sleep(wait).await,
                None => return Err(error),
            }
            attempt += 1;
        }
    }

    /// Sends the call and gives the OK answer with its body unread (a stream).
    pub(crate) async fn open(&self, call: Call) -> Result<Response> {
        match self.exchange(call, false).await? {
            Answer::Open(response) => Ok(response),
            Answer::Whole(_) => unreachable!("an open call is not read"),
        }
    }

    /// Sends the call and gives the OK answer read whole.
    pub(crate) async fn fetch(&self, call: Call) -> Result<Whole> {
        match self.exchange(call, true).await? {
            Answer::Whole(whole) => Ok(whole),
            Answer::Open(_) => unreachable!("a whole call is read"),
        }
    }

    /// Sends the call and decodes its JSON answer.
    pub(crate) async fn call<T: DeserializeOwned>(&self, call: Call) -> Result<T> {
        let what = format!("{} {}", call.method, call.path);
        let answer = self.fetch(call).await?;
        decode(&answer, &what)
    }

    /// Sends the call and ignores its answer's body.
    pub(crate) async fn call_empty(&self, call: Call) -> Result<()> {
        self.fetch(call).await.map(|_| ())
    }
}

pub(crate) fn decode<T: DeserializeOwned>(answer: &Whole, what: &str) -> Result<T> {
    serde_json::from_slice(&answer.body).map_err(|e| {
        Error::decode(format!("The answer of {what} is not what the API documents: {e}"))
            .with_source(e)
            .with_request_id(request_id_of(&answer.headers))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_version_4_uuids_and_differ() {
        let key = new_idempotency_key();
        assert_eq!(key.len(), 36);
        assert_eq!(&key[14..15], "4");
        assert!(matches!(&key[19..20], "8" | "9" | "a" | "b"));
        assert_ne!(key, new_idempotency_key());
    }

    #[test]
    fn escapes_ids_into_one_segment() {
        assert_eq!(escape("abc-123_x.y~z"), "abc-123_x.y~z");
        assert_eq!(escape("../keys"), "..%2Fkeys");
        assert_eq!(escape("a b?c#d"), "a%20b%3Fc%23d");
    }

    #[test]
    fn refuses_a_base_address_that_is_not_a_url() {
        let error = Client::builder().base_url("kasa.example").build().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Config);
        let client = Client::builder().base_url("http://127.0.0.1:9/ ").api_key("").build().unwrap();
        assert_eq!(client.base_url(), "http://127.0.0.1:9");
    }
}
