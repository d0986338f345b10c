//! The SDK against the built platform: KASA_BASE_URL is its address, KASA_FAKE_PROVIDER_URL a control of the fake
//! AI provider its chat service calls, and KASA_PLAN_CONTROL_URL a control that moves an account to the
//! Enterprise plan (sold by the sales team, not the checkout). sdks/rust/rust.test.ts starts all three, in npm test.
//! Without KASA_BASE_URL every test here returns at once, so that `cargo test` alone runs the unit tests.

use std::future::Future;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use kasa::{
    ApiKeyCreateParams, AttachmentUploadParams, Capability, ChatMessage, Client, CompletionParams, DetectHints,
    ErrorKind, LoginParams, MessageAttachment, MessageParams, PageParams, RegenerateParams, RegisterParams, ReplyEvent,
    Scope, SessionCreateParams, SynthesizeParams, VideoEvent, VideoParams, WaitOptions,
};
use serde_json::{json, Value};

const DEFAULT_TEXT: &str = "Hello from the fake provider.";
const UNKNOWN_ID: &str = "0123456789abcdef01234567";

/// The fake provider's mode is shared: one platform test at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The platform of one test, the fake provider reset to its default answer; `None` (the test returns) without
/// KASA_BASE_URL.
struct Platform {
    base_url: String,
    control: String,
    http: reqwest::Client,
    _turn: MutexGuard<'static, ()>,
}

async fn platform() -> Option<Platform> {
    let base_url = std::env::var("KASA_BASE_URL").ok().filter(|v| !v.is_empty());
    let base_url = match base_url {
        Some(url) => url,
        None => {
            eprintln!("KASA_BASE_URL is not set: the platform tests run with `npx jest sdks/rust`");
            return None;
        }
    };
    let control = std::env::var("KASA_FAKE_PROVIDER_URL").expect("KASA_FAKE_PROVIDER_URL (run `npx jest sdks/rust`)");
    let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = Platform { base_url, control, http: reqwest::Client::new(), _turn: turn };
    p.answer(DEFAULT_TEXT, 0).await;
    Some(p)
}

/// The platform of the test, or return (the test passes) without KASA_BASE_URL.
macro_rules! on_platform {
    () => {
        match platform().await {
            Some(p) => p,
            None => return,
        }
    };
}

/// A call bounded so that a hung platform fails the test instead of the run.
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), future).await.expect("no answer within 60 s")
}

fn unique() -> String {
    kasa::new_idempotency_key()[..8].to_string()
}

struct Person {
    username: String,
    email: String,
    password: String,
}

impl Person {
    fn new() -> Person {
        let run = unique();
        Person {
            username: format!("kofi_{run}"),
            email: format!("kofi.{run}@example.com"),
            password: "adinkra-sika".into(),
        }
    }

    fn register(&self) -> RegisterParams {
        RegisterParams { username: self.username.clone(), email: self.email.clone(), password: self.password.clone() }
    }

    fn login(&self) -> LoginParams {
        LoginParams { email: self.email.clone(), password: self.password.clone() }
    }
}

impl Platform {
    /// A client of the platform with no credential (KASA_API_KEY of the environment is not used).
    fn client(&self) -> Client {
        Client::builder().base_url(&self.base_url).api_key("").build().unwrap()
    }

    fn keyed(&self, key: &str) -> Client {
        Client::builder().base_url(&self.base_url).api_key(key).build().unwrap()
    }

    /// A client signed in as a new person (on the Free plan).
    async fn signed_in(&self) -> Client {
        let client = self.client();
        bounded(client.auth().register(&Person::new().register())).await.expect("register");
        client
    }

    /// A client signed in as a new person on the Pro plan: the SDK has no billing calls, so the checkout is called
    /// directly (the test platform's payment provider completes it at once) and its answer carries a new token.
    async fn pro(&self) -> Client {
        let client = self.signed_in().await;
        let (status, body) = self
            .send(
                reqwest::Method::POST,
                "/api/billing/checkout",
                client.token().as_deref(),
                Some(json!({"planId": "pro"})),
            )
            .await;
        assert_eq!(status, 201, "checkout: {body}");
        assert_eq!(body["user"]["subscriptionTier"], "pro");
        client.set_token(body["token"].as_str().map(str::to_string));
        client
    }

    /// A client signed in as a new person on the Enterprise plan (set by the plan control, then signed in again).
    async fn enterprise(&self) -> Client {
        let who = Person::new();
        let client = self.client();
        bounded(client.auth().register(&who.register())).await.unwrap();
        let control = std::env::var("KASA_PLAN_CONTROL_URL").expect("KASA_PLAN_CONTROL_URL (run `npx jest sdks/rust`)");
        let answer = self
            .http
            .put(format!("{control}/plan"))
            .header("content-type", "application/json")
            .body(json!({"email": who.email, "plan": "enterprise"}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "the plan control");
        let signed_in = bounded(client.auth().login(&who.login())).await.unwrap();
        assert_eq!(signed_in.user.subscription_tier, "enterprise");
        client
    }

    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base_url));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body.to_string());
        }
        let answer = bounded(request.send()).await.unwrap();
        let status = answer.status().as_u16();
        let text = answer.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Fetches an address of the platform without a credential.
    async fn get_bytes(&self, path: &str) -> (u16, String, Vec<u8>) {
        let url = if path.starts_with("http") { path.to_string() } else { format!("{}{path}", self.base_url) };
        let answer = bounded(self.http.get(url).send()).await.unwrap();
        let status = answer.status().as_u16();
        let content_type = answer.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        (status, content_type, answer.bytes().await.unwrap().to_vec())
    }

    async fn set_mode(&self, mode: Value) {
        let answer = self
            .http
            .put(format!("{}/mode", self.control))
            .header("content-type", "application/json")
            .body(mode.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "setting the provider's mode");
    }

    /// The provider streams `text` word by word, `delay_ms` apart.
    async fn answer(&self, text: &str, delay_ms: u64) {
        self.set_mode(json!({"kind": "ok", "text": text, "delayMs": delay_ms})).await;
    }

    /// The provider streams "w1 ", "w2 "... until the platform hangs up.
    async fn endless(&self, interval_ms: u64) {
        self.set_mode(json!({"kind": "endless", "intervalMs": interval_ms})).await;
    }

    /// Whether the platform hung up on the provider's last call.
    async fn provider_hung_up(&self) -> bool {
        let answer = self.http.get(format!("{}/requests/last", self.control)).send().await.unwrap();
        assert_eq!(answer.status(), 200);
        let last: Value = serde_json::from_str(&answer.text().await.unwrap()).unwrap();
        !last["closedAt"].is_null()
    }
}

/// Waits for `check` to hold, failing the test naming what it waited for.
async fn eventually<F, Fut>(what: &str, timeout: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + timeout;
    while !check().await {
        assert!(Instant::now() < deadline, "timed out after {timeout:?} waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn tokens_of(events: &[ReplyEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            ReplyEvent::Token(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect()
}

fn field_paths(error: &kasa::Error) -> Vec<String> {
    error.field_errors().into_iter().map(|f| f.path).collect()
}

// Accounts.

#[tokio::test]
async fn platform_registers_signs_in_reads_me_and_signs_out() {
    let p = on_platform!();
    let who = Person::new();
    let (first, other) = (p.client(), p.client());
    let registered = bounded(first.auth().register(&who.register())).await.unwrap();
    assert!(registered.success);
    assert_eq!(
        (registered.user.username.as_str(), registered.user.subscription_tier.as_str()),
        (who.username.as_str(), "free")
    );
    assert_eq!(first.token().as_deref(), Some(registered.token.as_str()));
    let login = bounded(other.auth().login(&who.login())).await.unwrap();
    assert_eq!(other.token().as_deref(), Some(login.token.as_str()));
    let me = bounded(other.auth().me()).await.unwrap();
    assert_eq!((me.user.email.as_str(), me.user.username.as_str()), (who.email.as_str(), who.username.as_str()));
    assert!(!me.operator);
    bounded(other.auth().logout()).await.unwrap();
    assert_eq!(other.token(), None);
    // The revoked token works nowhere any more.
    let revoked = Client::builder().base_url(&p.base_url).token(login.token).build().unwrap();
    let refused = bounded(revoked.auth().me()).await.unwrap_err();
    assert_eq!((refused.kind(), refused.status(), refused.code()), (ErrorKind::Authentication, 401, "unauthenticated"));
}

#[tokio::test]
async fn platform_a_wrong_password_is_a_401_with_the_apis_message_and_request_id() {
    let p = on_platform!();
    let who = Person::new();
    let client = p.client();
    bounded(client.auth().register(&who.register())).await.unwrap();
    let wrong = LoginParams { email: who.email.clone(), password: "not-the-password".into() };
    let refused = bounded(client.auth().login(&wrong)).await.unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Authentication);
    assert_eq!((refused.code(), refused.message()), ("unauthenticated", "Invalid email or password"));
    assert!(refused.request_id().is_some());
}

#[tokio::test]
async fn platform_invalid_registration_is_a_400_naming_each_wrong_field_and_a_taken_address_a_409() {
    let p = on_platform!();
    let client = p.client();
    let bad = RegisterParams { username: "x".into(), email: "not-an-email".into(), password: "123".into() };
    let error = bounded(client.auth().register(&bad)).await.unwrap_err();
    assert_eq!((error.kind(), error.code()), (ErrorKind::BadRequest, "validation_failed"));
    let fields = field_paths(&error);
    for name in ["username", "email", "password"] {
        assert!(fields.iter().any(|f| f == name), "{name} is not named in {fields:?}");
    }
    assert_eq!(client.token(), None);

    let who = Person::new();
    bounded(client.auth().register(&who.register())).await.unwrap();
    let mut again = who.register();
    again.username.push_str("_2");
    let conflict = bounded(client.auth().register(&again)).await.unwrap_err();
    assert_eq!((conflict.kind(), conflict.status()), (ErrorKind::Conflict, 409));
}

#[tokio::test]
async fn platform_no_credential_a_made_up_key_and_a_key_on_account_routes_are_401s() {
    let p = on_platform!();
    let none = bounded(p.client().sessions().list(PageParams::default())).await.unwrap_err();
    assert_eq!((none.kind(), none.code()), (ErrorKind::Authentication, "unauthenticated"));
    assert!(none.request_id().is_some());
    let made_up = bounded(p.keyed(&format!("ksk_{}", "A".repeat(43))).personas().list()).await.unwrap_err();
    assert_eq!(made_up.kind(), ErrorKind::Authentication);
    let owner = p.signed_in().await;
    let created = bounded(owner.api_keys().create(&ApiKeyCreateParams::new("Account routes", vec![]))).await.unwrap();
    let keyed = p.keyed(&created.secret);
    assert_eq!(bounded(keyed.auth().me()).await.unwrap_err().kind(), ErrorKind::Authentication);
    assert_eq!(bounded(keyed.api_keys().list()).await.unwrap_err().kind(), ErrorKind::Authentication);
}

// Personas, sessions and messages.

#[tokio::test]
async fn platform_lists_the_six_personas() {
    let p = on_platform!();
    let personas = bounded(p.signed_in().await.personas().list()).await.unwrap();
    for id in ["kasa", "merla", "ticha", "massa", "nana", "dokta"] {
        assert!(personas.iter().any(|persona| persona.id == id), "no persona {id}");
    }
}

#[tokio::test]
async fn platform_creates_lists_renames_and_deletes_a_session_and_sends_a_message() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("ticha", "Algebra"))).await.unwrap();
    assert_eq!((session.persona_id.as_str(), session.title.as_str()), ("ticha", "Algebra"));
    assert!(!session.created_at.is_empty());
    let reply = bounded(client.messages().send(&session.id, &MessageParams::new("What is 2 + 2?").language("en")))
        .await
        .unwrap();
    assert_eq!(
        (reply.role.as_str(), reply.content.as_str(), reply.status.as_str()),
        ("assistant", DEFAULT_TEXT, "complete")
    );
    assert!(!reply.user_message_id.is_empty());

    let page = bounded(client.messages().list(&session.id, PageParams::default())).await.unwrap();
    assert_eq!(page.messages.len(), 2);
    assert_eq!((page.messages[0].role.as_str(), page.messages[0].content.as_str()), ("user", "What is 2 + 2?"));
    assert_eq!(page.messages[1].content, DEFAULT_TEXT);
    assert_eq!(page.next_cursor, None);
    let newest = bounded(client.sessions().get(&session.id, PageParams::limit(1))).await.unwrap();
    assert_eq!(
        (newest.messages.len(), newest.messages[0].role.as_str(), newest.title.as_str()),
        (1, "assistant", "Algebra")
    );
    let cursor = newest.next_cursor.clone().expect("a cursor to the older page");
    let older = bounded(client.messages().list(&session.id, PageParams::after(cursor, Some(1)))).await.unwrap();
    assert_eq!((older.messages.len(), older.messages[0].role.as_str()), (1, "user"));

    let sessions = bounded(client.sessions().list(PageParams::limit(10))).await.unwrap();
    assert_eq!(sessions.sessions[0].id, session.id);
    let renamed = bounded(client.sessions().rename(&session.id, "Maths")).await.unwrap();
    assert_eq!(renamed.title, "Maths");
    bounded(client.sessions().delete(&session.id)).await.unwrap();
    let gone = bounded(client.sessions().get(&session.id, PageParams::default())).await.unwrap_err();
    assert_eq!((gone.kind(), gone.code()), (ErrorKind::NotFound, "not_found"));
}

#[tokio::test]
async fn platform_another_persons_session_is_a_404_everywhere() {
    let p = on_platform!();
    let (owner, stranger) = (p.signed_in().await, p.signed_in().await);
    let session = bounded(owner.sessions().create(&SessionCreateParams::new("kasa", "Mine"))).await.unwrap();
    let reply = bounded(owner.messages().send(&session.id, &MessageParams::new("Hello"))).await.unwrap();
    let not_found = |result: kasa::Result<()>| assert_eq!(result.unwrap_err().kind(), ErrorKind::NotFound);
    not_found(bounded(stranger.sessions().get(&session.id, PageParams::default())).await.map(|_| ()));
    not_found(bounded(stranger.messages().send(&session.id, &MessageParams::new("Hi"))).await.map(|_| ()));
    not_found(bounded(stranger.messages().stream(&session.id, &MessageParams::new("Hi"))).await.map(|_| ()));
    not_found(bounded(stranger.messages().resume(&session.id, &reply.id)).await.map(|_| ()));
    not_found(bounded(stranger.messages().stop(&session.id, &reply.id)).await.map(|_| ()));
    not_found(bounded(stranger.sessions().delete(&session.id)).await);
    not_found(bounded(owner.sessions().get(UNKNOWN_ID, PageParams::default())).await.map(|_| ()));
    // Still there for its owner.
    assert_eq!(bounded(owner.sessions().get(&session.id, PageParams::default())).await.unwrap().title, "Mine");
}

#[tokio::test]
async fn platform_bad_input_is_a_400_naming_the_field() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let nobody = bounded(client.sessions().create(&SessionCreateParams::new("nobody", "Who?"))).await.unwrap_err();
    assert_eq!(nobody.kind(), ErrorKind::BadRequest);
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Empty"))).await.unwrap();
    let empty = bounded(client.messages().send(&session.id, &MessageParams::new("   "))).await.unwrap_err();
    assert_eq!((empty.kind(), empty.code()), (ErrorKind::BadRequest, "validation_failed"));
    assert!(field_paths(&empty).iter().any(|f| f == "content"), "{:?}", empty.field_errors());
    let language =
        bounded(client.messages().stream(&session.id, &MessageParams::new("Hi").language("not a language!"))).await;
    assert_eq!(language.unwrap_err().kind(), ErrorKind::BadRequest);
    let id = bounded(client.sessions().get("not-an-id", PageParams::default())).await.unwrap_err();
    assert_eq!(id.kind(), ErrorKind::BadRequest);
}

// Streamed replies.

#[tokio::test]
async fn platform_streams_meta_then_every_token_in_order_then_the_stored_reply() {
    let p = on_platform!();
    let text = "Akwaaba one two three four five six seven eight nine ten";
    p.answer(text, 5).await;
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Stream"))).await.unwrap();
    let mut stream = bounded(client.messages().stream(&session.id, &MessageParams::new("Count to ten"))).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = bounded(stream.next()).await.unwrap() {
        events.push(event);
    }
    let meta = match &events[0] {
        ReplyEvent::Meta(meta) => meta.clone(),
        other => panic!("first event {other:?}"),
    };
    assert_eq!(meta.provider, "fake");
    assert!(!meta.continued);
    match events.last().unwrap() {
        ReplyEvent::Done(reply) => {
            assert_eq!((reply.content.as_str(), reply.status.as_str()), (text, "complete"));
            assert_eq!(reply.id, meta.assistant_message_id);
        }
        other => panic!("last event {other:?}"),
    }
    let tokens = tokens_of(&events);
    assert!(tokens.len() > 5, "{tokens:?}");
    assert_eq!(tokens.concat(), text);
    assert!(stream.request_id().is_some());
}

#[tokio::test]
async fn platform_stop_ends_the_reply_on_the_server_and_keeps_what_was_written() {
    let p = on_platform!();
    p.endless(20).await;
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Stop"))).await.unwrap();
    let mut stream =
        bounded(client.messages().stream(&session.id, &MessageParams::new("Go on for ever"))).await.unwrap();
    let mut tokens = Vec::new();
    let mut done = None;
    while let Some(event) = bounded(stream.next()).await.unwrap() {
        match event {
            ReplyEvent::Token(token) => {
                tokens.push(token.text);
                if tokens.len() == 3 {
                    let stopped = bounded(stream.stop()).await.unwrap();
                    assert_eq!(Some(stopped.id), stream.assistant_message_id());
                }
            }
            ReplyEvent::Done(reply) => done = Some(reply),
            ReplyEvent::Meta(_) => {}
        }
    }
    let done = done.expect("the stream ended without its done event");
    assert_eq!(done.status, "stopped");
    assert!(done.content.starts_with("w1 w2 w3"), "{}", done.content);
    assert_eq!(tokens[..3].concat(), "w1 w2 w3 ");
    eventually("the provider call to be cancelled", Duration::from_secs(10), || p.provider_hung_up()).await;
    let page = bounded(client.messages().list(&session.id, PageParams::default())).await.unwrap();
    let last = page.messages.last().unwrap();
    assert_eq!((last.id.as_str(), last.status.as_str()), (done.id.as_str(), "stopped"));
}

#[tokio::test]
async fn platform_a_stop_handle_stops_the_reply_from_another_task() {
    let p = on_platform!();
    p.endless(20).await;
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Handle"))).await.unwrap();
    let stream = bounded(client.messages().stream(&session.id, &MessageParams::new("Go on"))).await.unwrap();
    let handle = stream.stop_handle();
    let stopper = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        handle.stop().await
    });
    let reply = bounded(stream.final_message()).await.unwrap();
    assert_eq!(reply.status, "stopped");
    assert!(reply.content.starts_with("w1 "), "{}", reply.content);
    assert_eq!(stopper.await.unwrap().unwrap().id, reply.id);
}

#[tokio::test]
async fn platform_hanging_up_stops_a_reply_that_is_not_resumable() {
    let p = on_platform!();
    p.endless(20).await;
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Hang up"))).await.unwrap();
    let mut stream = bounded(client.messages().stream(&session.id, &MessageParams::new("Go on"))).await.unwrap();
    while let Some(event) = bounded(stream.next()).await.unwrap() {
        if matches!(event, ReplyEvent::Token(_)) {
            break;
        }
    }
    stream.close();
    eventually("the provider call to be cancelled", Duration::from_secs(10), || p.provider_hung_up()).await;
    eventually("the reply to be stored as stopped", Duration::from_secs(10), || async {
        let page = client.messages().list(&session.id, PageParams::default()).await.unwrap();
        let last = page.messages.last().unwrap();
        last.role == "assistant" && last.status == "stopped"
    })
    .await;
}

#[tokio::test]
async fn platform_a_resumable_reply_goes_on_after_hanging_up_and_is_followed_again() {
    let p = on_platform!();
    p.endless(20).await;
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Resume"))).await.unwrap();
    let mut first =
        bounded(client.messages().stream(&session.id, &MessageParams::new("Tell me everything").resumable()))
            .await
            .unwrap();
    while let Some(event) = bounded(first.next()).await.unwrap() {
        if matches!(&event, ReplyEvent::Token(t) if t.text == "w2 ") {
            break;
        }
    }
    let message_id = first.assistant_message_id().expect("the reply's id");
    first.close();

    let mut followed = bounded(client.messages().resume(&session.id, &message_id)).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = bounded(followed.next()).await.unwrap() {
        let is_token = matches!(event, ReplyEvent::Token(_));
        events.push(event);
        if is_token && tokens_of(&events).len() == 2 {
            // Nobody hung up on the provider: the reply was being written all along.
            assert!(!p.provider_hung_up().await, "the provider call was cancelled by the hang-up");
            bounded(followed.stop()).await.unwrap();
        }
    }
    assert!(matches!(&events[0], ReplyEvent::Meta(m) if m.assistant_message_id == message_id));
    // The text so far arrives first, from the first word on; then the reply went on being written.
    let tokens = tokens_of(&events);
    assert!(tokens.len() >= 2 && tokens[0].starts_with("w1 w2 "), "{tokens:?}");
    match events.last().unwrap() {
        ReplyEvent::Done(reply) => {
            assert_eq!(reply.status, "stopped");
            assert_eq!(reply.content, tokens.concat());
        }
        other => panic!("last event {other:?}"),
    }
    eventually("the provider call to be cancelled", Duration::from_secs(10), || p.provider_hung_up()).await;
}

#[tokio::test]
async fn platform_resuming_a_finished_reply_gives_it_at_once_and_an_unknown_one_is_a_404() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("ticha", "Done already"))).await.unwrap();
    let reply = bounded(client.messages().send(&session.id, &MessageParams::new("What is 2 + 2?"))).await.unwrap();

    let mut followed = bounded(client.messages().resume(&session.id, &reply.id)).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = bounded(followed.next()).await.unwrap() {
        events.push(event);
    }
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(
        matches!(&events[0], ReplyEvent::Meta(m) if m.assistant_message_id == reply.id && m.user_message_id == reply.user_message_id),
        "{:?}",
        events[0]
    );
    assert_eq!(tokens_of(&events), vec![DEFAULT_TEXT.to_string()]);
    match &events[2] {
        ReplyEvent::Done(done) => assert_eq!((done.id.as_str(), done.status.as_str()), (reply.id.as_str(), "complete")),
        other => panic!("last event {other:?}"),
    }
    let again = bounded(client.messages().resume(&session.id, &reply.id)).await.unwrap();
    let last = bounded(again.final_message()).await.unwrap();
    assert_eq!((last.id.as_str(), last.content.as_str()), (reply.id.as_str(), DEFAULT_TEXT));

    let unknown = bounded(client.messages().resume(&session.id, UNKNOWN_ID)).await.map(|_| ()).unwrap_err();
    assert_eq!((unknown.kind(), unknown.status(), unknown.code()), (ErrorKind::NotFound, 404, "not_found"));
    let malformed = bounded(client.messages().resume(&session.id, "not-an-id")).await.map(|_| ()).unwrap_err();
    assert_eq!((malformed.kind(), malformed.code()), (ErrorKind::BadRequest, "validation_failed"));
}

// Versions of messages.

fn contents(messages: &[kasa::StoredMessage]) -> Vec<&str> {
    messages.iter().map(|m| m.content.as_str()).collect()
}

#[tokio::test]
async fn platform_edits_a_message_regenerates_the_answer_and_shows_the_first_version_again() {
    let p = on_platform!();
    p.answer("Accra.", 0).await;
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("kasa", "Versions"))).await.unwrap();
    let first = bounded(client.messages().send(&session.id, &MessageParams::new("Capital of Ghana?"))).await.unwrap();

    // The edit, streamed: a new version of the question, answered like a new message.
    let text = "Abuja is the capital.";
    p.answer(text, 5).await;
    let edit = MessageParams::new("Capital of Nigeria?");
    let mut stream = bounded(client.messages().edit_stream(&session.id, &first.user_message_id, &edit)).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = bounded(stream.next()).await.unwrap() {
        events.push(event);
    }
    let edited = match events.last().unwrap() {
        ReplyEvent::Done(reply) => reply.clone(),
        other => panic!("last event {other:?}"),
    };
    assert_eq!(
        (edited.role.as_str(), edited.content.as_str(), edited.status.as_str()),
        ("assistant", text, "complete")
    );
    assert_eq!(tokens_of(&events).concat(), text);
    assert_ne!(edited.user_message_id, first.user_message_id);
    let page = bounded(client.messages().list(&session.id, PageParams::default())).await.unwrap();
    assert_eq!(contents(&page.messages), ["Capital of Nigeria?", text]);
    let version = page.messages[0].version.clone().expect("the edited question's version");
    assert_eq!((version.index, version.count), (1, 2));
    assert_eq!(version.sibling_ids, [first.user_message_id.clone(), edited.user_message_id.clone()]);

    // The answer written again: its second version, to the same question.
    p.answer("Abuja, since 1991.", 0).await;
    let second =
        bounded(client.messages().regenerate(&session.id, &edited.id, &RegenerateParams::new())).await.unwrap();
    assert_eq!(
        (second.content.as_str(), second.user_message_id.as_str()),
        ("Abuja, since 1991.", edited.user_message_id.as_str())
    );
    let version = second.version.clone().expect("the regenerated answer's version");
    assert_eq!((version.index, version.count), (1, 2));
    assert_eq!(version.sibling_ids, [edited.id.clone(), second.id.clone()]);

    // Back to the first question: its own answer, kept, and so it stays.
    let shown = bounded(client.messages().select_version(&session.id, &first.user_message_id, Some(10))).await.unwrap();
    assert_eq!((shown.id.as_str(), shown.title.as_str()), (session.id.as_str(), "Versions"));
    assert_eq!(contents(&shown.messages), ["Capital of Ghana?", "Accra."]);
    assert_eq!(shown.messages[0].version.as_ref().map(|v| (v.index, v.count)), Some((0, 2)));
    let page = bounded(client.messages().list(&session.id, PageParams::default())).await.unwrap();
    assert_eq!(contents(&page.messages), ["Capital of Ghana?", "Accra."]);

    // An answer cannot be edited, nor a question regenerated.
    let answer = bounded(client.messages().edit(&session.id, &first.id, &MessageParams::new("x"))).await.unwrap_err();
    assert_eq!((answer.kind(), answer.status()), (ErrorKind::BadRequest, 400));
    let question = bounded(client.messages().regenerate(&session.id, &first.user_message_id, &RegenerateParams::new()))
        .await
        .unwrap_err();
    assert_eq!((question.kind(), question.status()), (ErrorKind::BadRequest, 400));
    assert!(question.message().contains("Only an answer can be regenerated"), "{question}");
}

// Attachments.

const NOTES: &[u8] = b"# Bonwire\n\nKente is woven here.";

/// The CRC-32 of a PNG chunk (ISO 3309, the polynomial reversed).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// `data` as a zlib stream of one stored (uncompressed) deflate block, with its Adler-32.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    assert!(data.len() <= 0xFFFF, "one stored block holds at most 65535 bytes");
    let len = data.len() as u16;
    let mut out = vec![0x78, 0x01, 0x01];
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(!len).to_le_bytes());
    out.extend_from_slice(data);
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    out.extend_from_slice(&((b << 16) | a).to_be_bytes());
    out
}

/// A real PNG, written out byte by byte (signature, IHDR, IDAT, IEND): `width`×`height` pixels of one RGB colour.
fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let body = [&kind[..], data].concat();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    }
    let mut header = Vec::new();
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    // 8 bits a sample, RGB; the default compression, filters and no interlacing.
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    // Each row: filter 0 (none), then its pixels.
    let row: Vec<u8> = std::iter::once(0).chain((0..width).flat_map(|_| rgb)).collect();
    let pixels = row.repeat(height as usize);
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"IDAT", &zlib_stored(&pixels));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// The attachment as a message carries it.
fn carried(attachment: &kasa::Attachment) -> MessageAttachment {
    MessageAttachment {
        id: attachment.id.clone(),
        kind: attachment.kind.clone(),
        name: attachment.name.clone(),
        media_type: attachment.media_type.clone(),
        size: attachment.size,
    }
}

#[tokio::test]
async fn platform_uploads_an_image_and_a_document_sends_both_with_a_message_reads_them_back_and_deletes_them() {
    let p = on_platform!();
    let pro = p.pro().await;
    let kente = png(4, 3, [200, 40, 40]);
    let image =
        bounded(pro.attachments().upload(kente.clone(), &AttachmentUploadParams::new("kente.png"))).await.unwrap();
    assert_eq!(
        (image.kind.as_str(), image.media_type.as_str(), image.name.as_str(), image.size),
        (kasa::ATTACHMENT_IMAGE, "image/png", "kente.png", kente.len() as u64)
    );
    assert!(image.has_thumbnail && image.pages.is_none(), "{image:?}");
    let notes = bounded(pro.attachments().upload(NOTES, &AttachmentUploadParams::new("notes.md"))).await.unwrap();
    assert_eq!(
        (notes.kind.as_str(), notes.media_type.as_str(), notes.name.as_str(), notes.size),
        (kasa::ATTACHMENT_DOCUMENT, "text/markdown", "notes.md", NOTES.len() as u64)
    );
    assert!(!notes.has_thumbnail);

    // Sent with a message: the stored question carries both, in the order given.
    let session = bounded(pro.sessions().create(&SessionCreateParams::new("kasa", "Files"))).await.unwrap();
    let params = MessageParams::new("What do they show?").attachments([image.id.as_str(), notes.id.as_str()]);
    let reply = bounded(pro.messages().send(&session.id, &params)).await.unwrap();
    assert_eq!((reply.role.as_str(), reply.status.as_str()), ("assistant", "complete"));
    let page = bounded(pro.messages().list(&session.id, PageParams::default())).await.unwrap();
    let question = page.messages.iter().find(|m| m.id == reply.user_message_id).expect("the question is stored");
    assert_eq!(question.content, "What do they show?");
    assert_eq!(question.attachments, Some(vec![carried(&image), carried(&notes)]));

    // Read back: the same bytes, type and name; the image's preview is a WebP, a document has none.
    let file = bounded(pro.attachments().get(&image.id)).await.unwrap();
    assert_eq!(
        (file.data.as_slice(), file.content_type.as_str(), file.name.as_deref()),
        (kente.as_slice(), "image/png", Some("kente.png"))
    );
    let file = bounded(pro.attachments().get(&notes.id)).await.unwrap();
    assert_eq!(
        (file.data.as_slice(), file.content_type.as_str(), file.name.as_deref()),
        (NOTES, "text/markdown", Some("notes.md"))
    );
    let preview = bounded(pro.attachments().thumbnail(&image.id)).await.unwrap();
    assert_eq!(preview.content_type, "image/webp");
    assert!(
        preview.data.starts_with(b"RIFF") && preview.data.get(8..12) == Some(&b"WEBP"[..]),
        "{} bytes",
        preview.data.len()
    );
    let none = bounded(pro.attachments().thumbnail(&notes.id)).await.unwrap_err();
    assert_eq!((none.kind(), none.status()), (ErrorKind::NotFound, 404));

    // Deleted: gone for its owner.
    for attachment in [&image, &notes] {
        bounded(pro.attachments().delete(&attachment.id)).await.unwrap();
        let gone = bounded(pro.attachments().get(&attachment.id)).await.unwrap_err();
        assert_eq!((gone.kind(), gone.status(), gone.code()), (ErrorKind::NotFound, 404, "not_found"));
    }
    let again = bounded(pro.attachments().delete(&image.id)).await.unwrap_err();
    assert_eq!(again.kind(), ErrorKind::NotFound);
}

#[tokio::test]
async fn platform_attachments_refuse_a_free_account_an_unknown_type_and_someone_elses_file() {
    let p = on_platform!();
    let free = p.signed_in().await;
    let denied = bounded(free.attachments().upload(NOTES, &AttachmentUploadParams::new("notes.md"))).await.unwrap_err();
    assert_eq!((denied.kind(), denied.status(), denied.code()), (ErrorKind::PermissionDenied, 403, "forbidden"));
    assert!(denied.message().contains("Pro"), "{}", denied.message());

    let pro = p.pro().await;
    let blob =
        bounded(pro.attachments().upload(vec![0x00, 0x13, 0x37, 0x00, 0x42], &AttachmentUploadParams::new("blob.bin")))
            .await
            .unwrap_err();
    assert_eq!((blob.kind(), blob.status(), blob.code()), (ErrorKind::BadRequest, 415, "unsupported_media_type"));
    assert!(blob.is_unsupported_media_type());

    // Someone else's file is not found, whatever the plan: neither read, nor previewed, nor deleted.
    let image = bounded(pro.attachments().upload(png(2, 2, [0, 120, 60]), &AttachmentUploadParams::new("cloth.png")))
        .await
        .unwrap();
    for stranger in [p.signed_in().await, p.pro().await] {
        let not_found = |result: kasa::Result<()>| assert_eq!(result.unwrap_err().kind(), ErrorKind::NotFound);
        not_found(bounded(stranger.attachments().get(&image.id)).await.map(|_| ()));
        not_found(bounded(stranger.attachments().thumbnail(&image.id)).await.map(|_| ()));
        not_found(bounded(stranger.attachments().delete(&image.id)).await);
    }
    // Still there for its owner.
    assert_eq!(bounded(pro.attachments().get(&image.id)).await.unwrap().content_type, "image/png");
}

// Shared conversations.

#[tokio::test]
async fn platform_shares_a_conversation_that_anyone_reads_until_its_owner_stops_sharing() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("ticha", "Algebra"))).await.unwrap();
    bounded(client.messages().send(&session.id, &MessageParams::new("What is 2 + 2?"))).await.unwrap();

    let link = bounded(client.sessions().share(&session.id)).await.unwrap();
    assert!(link.token.len() == 22 && link.token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert_eq!(
        (link.session_id.as_str(), link.message_count, link.path.clone()),
        (session.id.as_str(), 2, format!("/share/{}", link.token))
    );
    assert_eq!(bounded(client.sessions().get_share(&session.id)).await.unwrap(), link);

    let anyone = p.client();
    let shared = bounded(anyone.sessions().read_shared(&link.token)).await.unwrap();
    assert_eq!((shared.title.as_str(), shared.persona.id.as_str(), shared.truncated), ("Algebra", "ticha", false));
    assert!(!shared.persona.name.is_empty());
    let texts: Vec<(&str, &str)> = shared.messages.iter().map(|m| (m.role.as_str(), m.content.as_str())).collect();
    assert_eq!(texts, vec![("user", "What is 2 + 2?"), ("assistant", DEFAULT_TEXT)]);

    // A message sent after sharing is not shown until the conversation is shared again, under the same link.
    bounded(client.messages().send(&session.id, &MessageParams::new("And 3 + 3?"))).await.unwrap();
    assert_eq!(bounded(anyone.sessions().read_shared(&link.token)).await.unwrap().messages.len(), 2);
    let again = bounded(client.sessions().share(&session.id)).await.unwrap();
    assert_eq!((again.token.as_str(), again.message_count), (link.token.as_str(), 4));
    assert!(again.shared_at >= link.shared_at);
    assert_eq!(bounded(anyone.sessions().read_shared(&link.token)).await.unwrap().messages.len(), 4);

    bounded(client.sessions().stop_sharing(&session.id)).await.unwrap();
    let gone = bounded(anyone.sessions().read_shared(&link.token)).await.unwrap_err();
    assert_eq!((gone.kind(), gone.status(), gone.code()), (ErrorKind::NotFound, 404, "not_found"));
    let unshared = bounded(client.sessions().get_share(&session.id)).await.unwrap_err();
    assert_eq!(unshared.kind(), ErrorKind::NotFound);
    // Stopping again is not an error; sharing again makes a new link, and the old one stays dead.
    bounded(client.sessions().stop_sharing(&session.id)).await.unwrap();
    let renewed = bounded(client.sessions().share(&session.id)).await.unwrap();
    assert_ne!(renewed.token, link.token);
    assert_eq!(bounded(anyone.sessions().read_shared(&link.token)).await.unwrap_err().kind(), ErrorKind::NotFound);
}

#[tokio::test]
async fn platform_someone_elses_session_cannot_be_shared_and_an_empty_one_is_a_400() {
    let p = on_platform!();
    let (owner, stranger) = (p.signed_in().await, p.signed_in().await);
    let session = bounded(owner.sessions().create(&SessionCreateParams::new("kasa", "Mine"))).await.unwrap();
    bounded(owner.messages().send(&session.id, &MessageParams::new("Hello"))).await.unwrap();
    let link = bounded(owner.sessions().share(&session.id)).await.unwrap();

    let not_found = |result: kasa::Result<()>| assert_eq!(result.unwrap_err().kind(), ErrorKind::NotFound);
    not_found(bounded(stranger.sessions().share(&session.id)).await.map(|_| ()));
    not_found(bounded(stranger.sessions().get_share(&session.id)).await.map(|_| ()));
    not_found(bounded(stranger.sessions().stop_sharing(&session.id)).await);
    // The stranger's attempts changed nothing: the link still works.
    assert_eq!(bounded(owner.sessions().read_shared(&link.token)).await.unwrap().title, "Mine");

    let empty = bounded(owner.sessions().create(&SessionCreateParams::new("kasa", "Nothing yet"))).await.unwrap();
    let refused = bounded(owner.sessions().share(&empty.id)).await.unwrap_err();
    assert_eq!((refused.kind(), refused.status()), (ErrorKind::BadRequest, 400));
    for token in ["AAAAAAAAAAAAAAAAAAAAAA", "not a token"] {
        not_found(bounded(owner.sessions().read_shared(token)).await.map(|_| ()));
    }
}

// The OpenAI-compatible API.

#[tokio::test]
async fn platform_completes_whole_and_streamed_and_lists_the_models() {
    let p = on_platform!();
    p.answer("Me din de Ama", 2).await;
    let client = p.signed_in().await;
    let params =
        CompletionParams { temperature: Some(0.2), ..CompletionParams::new("merla", vec![ChatMessage::user("Hi")]) };
    let completion = bounded(client.completions().create(&params)).await.unwrap();
    assert_eq!(
        (completion.object.as_str(), completion.choices[0].message.content.as_deref().unwrap_or_default()),
        ("chat.completion", "Me din de Ama")
    );
    assert!(completion.usage.completion_tokens > 0);

    let params =
        CompletionParams { include_usage: true, ..CompletionParams::new("kasa", vec![ChatMessage::user("Hi")]) };
    let mut stream = bounded(client.completions().stream(&params)).await.unwrap();
    let (mut text, mut usage) = (String::new(), None);
    while let Some(chunk) = bounded(stream.next()).await.unwrap() {
        assert_eq!(chunk.object, "chat.completion.chunk");
        if let Some(choice) = chunk.choices.first() {
            text.push_str(choice.delta.content.as_deref().unwrap_or(""));
        }
        if chunk.usage.is_some() {
            usage = chunk.usage;
        }
    }
    assert_eq!(text, "Me din de Ama");
    assert!(usage.expect("usage in the last chunk").completion_tokens > 0);

    let models = bounded(client.completions().models()).await.unwrap();
    assert!(models.data.iter().any(|m| m.id == "kasa") && models.data.iter().any(|m| m.id == "dokta"));
    // Each model carries its persona's name and expertise.
    assert!(models.data.iter().all(|m| !m.name.is_empty() && !m.description.is_empty()), "{:?}", models.data);
}

#[tokio::test]
async fn platform_completions_work_with_an_api_key_and_refuse_an_unknown_model_or_no_messages() {
    let p = on_platform!();
    let owner = p.signed_in().await;
    let secret = bounded(owner.api_keys().create(&ApiKeyCreateParams::new("Completions", vec![Scope::Chat])))
        .await
        .unwrap()
        .secret;
    let answer =
        bounded(p.keyed(&secret).completions().create(&CompletionParams::new("kasa", vec![ChatMessage::user("Hi")])))
            .await
            .unwrap();
    assert_eq!(answer.choices[0].message.content.as_deref(), Some(DEFAULT_TEXT));
    let unknown =
        bounded(owner.completions().create(&CompletionParams::new("no-such-persona", vec![ChatMessage::user("Hi")])))
            .await;
    assert_eq!(unknown.unwrap_err().kind(), ErrorKind::NotFound);
    let empty = bounded(owner.completions().stream(&CompletionParams::new("kasa", vec![]))).await;
    assert_eq!(empty.unwrap_err().kind(), ErrorKind::BadRequest);
}

// API keys.

#[tokio::test]
async fn platform_a_created_key_works_as_the_api_key_and_stops_working_once_revoked() {
    let p = on_platform!();
    let owner = p.signed_in().await;
    let params =
        ApiKeyCreateParams { expires_in_days: Some(30), ..ApiKeyCreateParams::new("SDK test", vec![Scope::Chat]) };
    let created = bounded(owner.api_keys().create(&params)).await.unwrap();
    assert!(created.secret.starts_with("ksk_"));
    assert_eq!(created.key.scopes, vec!["chat".to_string()]);
    assert!(created.key.expires_at.is_some());
    let keyed = p.keyed(&created.secret);
    assert!(bounded(keyed.personas().list()).await.unwrap().len() >= 6);
    let session = bounded(keyed.sessions().create(&SessionCreateParams::new("massa", "Via key"))).await.unwrap();
    let stream = bounded(keyed.messages().stream(&session.id, &MessageParams::new("Hello"))).await.unwrap();
    assert_eq!(bounded(stream.final_message()).await.unwrap().content, DEFAULT_TEXT);
    // The key acts for its owner.
    let owned = bounded(owner.sessions().list(PageParams::default())).await.unwrap();
    assert_eq!(owned.sessions[0].id, session.id);
    // A chat-only key may not speak.
    let denied = bounded(keyed.voice().synthesize(&SynthesizeParams::new("Akwaaba", "en"))).await.unwrap_err();
    assert_eq!((denied.kind(), denied.code()), (ErrorKind::PermissionDenied, "forbidden"));

    let listed = bounded(owner.api_keys().list()).await.unwrap();
    let key = listed.iter().find(|k| k.id == created.key.id).expect("the key is listed");
    assert_eq!(key.name, "SDK test");
    assert!(key.revoked_at.is_none() && !key.masked_key.contains(&created.secret));
    bounded(owner.api_keys().revoke(&created.key.id)).await.unwrap();
    let listed = bounded(owner.api_keys().list()).await.unwrap();
    assert!(listed.iter().any(|k| k.id == created.key.id && k.revoked_at.is_some()));
    bounded(owner.api_keys().revoke(&created.key.id)).await.expect("revoking again");
    let once = keyed.with_max_retries(0);
    eventually("the revoked key to be refused", Duration::from_secs(30), || async {
        matches!(once.personas().list().await, Err(e) if e.kind() == ErrorKind::Authentication)
    })
    .await;
}

#[tokio::test]
async fn platform_a_team_owner_creates_a_key_of_the_team() {
    let p = on_platform!();
    let owner = p.enterprise().await;
    // The crate has no team calls: the team is made with the owner's token directly.
    let (status, team) = p
        .send(
            reqwest::Method::POST,
            "/api/developer/team",
            owner.token().as_deref(),
            Some(json!({"name": "Tamale Tech"})),
        )
        .await;
    assert_eq!(status, 201, "creating a team: {team}");
    let team_id = team["team"]["id"].as_str().expect("the team's id").to_string();

    let params = ApiKeyCreateParams::new("Team key", vec![Scope::Chat]).for_team();
    let created = bounded(owner.api_keys().create(&params)).await.unwrap();
    assert_eq!(created.key.team_id.as_deref(), Some(team_id.as_str()));
    assert!(created.secret.starts_with("ksk_"));
    let listed = bounded(owner.api_keys().list()).await.unwrap();
    let key = listed.iter().find(|k| k.id == created.key.id).expect("the team key is listed");
    assert_eq!(key.team_id.as_deref(), Some(team_id.as_str()));
    // A personal key of the same person stays personal.
    let personal = bounded(owner.api_keys().create(&ApiKeyCreateParams::new("Mine", vec![]))).await.unwrap();
    assert_eq!(personal.key.team_id, None);
    assert!(bounded(p.keyed(&created.secret).personas().list()).await.unwrap().len() >= 6);

    // Someone in no team may not make a team key.
    let outsider = p.signed_in().await;
    let params = ApiKeyCreateParams::new("Not mine", vec![]).for_team();
    let denied = bounded(outsider.api_keys().create(&params)).await.unwrap_err();
    assert_eq!((denied.kind(), denied.code()), (ErrorKind::PermissionDenied, "forbidden"));
}

#[tokio::test]
async fn platform_a_bad_key_name_is_a_400_and_an_unknown_key_a_404() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let params = ApiKeyCreateParams { expires_in_days: Some(1000), ..ApiKeyCreateParams::new("", vec![]) };
    let bad = bounded(client.api_keys().create(&params)).await.unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::BadRequest);
    let fields = field_paths(&bad);
    assert!(fields.contains(&"name".to_string()) && fields.contains(&"expiresInDays".to_string()), "{fields:?}");
    assert_eq!(bounded(client.api_keys().revoke(UNKNOWN_ID)).await.unwrap_err().kind(), ErrorKind::NotFound);
}

// Languages, voices and geo.

#[tokio::test]
async fn platform_lists_gets_and_detects_languages() {
    let p = on_platform!();
    let client = p.client();
    let catalogue = bounded(client.languages().list(Some(Capability::Detect))).await.unwrap();
    assert!(catalogue.count > 30 && catalogue.count == catalogue.languages.len());
    assert!(catalogue.languages.iter().all(|l| l.capabilities.detect));
    assert_eq!(bounded(client.languages().get("twi")).await.unwrap().code, "tw");
    let detected = bounded(client.languages().detect("Bonjour, comment allez-vous aujourd’hui ?", None)).await.unwrap();
    assert_eq!(detected.language, "fr");
    assert!(detected.confidence > 0.0 && detected.confidence <= 1.0);
    let hints = DetectHints { browser_locale: Some("en-KE".into()), ..DetectHints::default() };
    let hinted = bounded(client.languages().detect("Habari ya asubuhi, rafiki yangu", Some(&hints))).await.unwrap();
    assert_eq!(hinted.language, "sw");
    assert_eq!(bounded(client.languages().get("zz")).await.unwrap_err().kind(), ErrorKind::NotFound);
    assert_eq!(bounded(client.languages().detect("", None)).await.unwrap_err().kind(), ErrorKind::BadRequest);
}

#[tokio::test]
async fn platform_lists_voices_and_looks_up_addresses() {
    let p = on_platform!();
    let client = p.client();
    let voices = bounded(client.voice().voices(None)).await.unwrap();
    assert!(!voices.is_empty());
    assert!(voices
        .iter()
        .all(|v| !v.id.is_empty() && !v.name.is_empty() && !v.language.is_empty() && !v.engine.is_empty()));
    assert!(bounded(client.voice().voices(Some("sw"))).await.unwrap().iter().all(|v| v.language == "sw"));
    let accra = bounded(client.geo().lookup(Some("41.66.199.1"))).await.unwrap();
    assert!(accra.found);
    assert_eq!((accra.country.as_deref(), accra.currency.as_deref()), (Some("GH"), Some("GHS")));
    let private = bounded(client.geo().lookup(Some("10.0.0.1"))).await.unwrap();
    assert_eq!((private.ip.as_str(), private.found), ("10.0.0.1", false));
    // The loopback address: an unknown place, not an error.
    assert!(!bounded(client.geo().lookup(None)).await.unwrap().found);
    assert_eq!(bounded(client.geo().lookup(Some("not-an-ip"))).await.unwrap_err().kind(), ErrorKind::BadRequest);
}

// Speech.

fn is_mp3(data: &[u8]) -> bool {
    data.starts_with(b"ID3") || (data.len() > 1 && data[0] == 0xFF && data[1] & 0xE0 == 0xE0)
}

#[tokio::test]
async fn platform_speaks_for_pro_as_audio_bytes_and_as_a_stored_address() {
    let p = on_platform!();
    let pro = p.pro().await;
    let mp3 = bounded(pro.voice().synthesize(&SynthesizeParams::new("Akwaaba. Welcome to Kasa.", "en"))).await.unwrap();
    assert!(mp3.data.len() > 1000 && is_mp3(&mp3.data), "{} bytes", mp3.data.len());
    assert_eq!(mp3.content_type, "audio/mpeg");
    // The stored copy, complete once the answer has ended, is the same audio.
    let (_, _, stored) = p.get_bytes(mp3.audio_url.as_deref().expect("the stored copy's address")).await;
    assert_eq!(stored, mp3.data);

    let synthesis = bounded(pro.voice().synthesize_to_url(&SynthesizeParams::new("Habari yako?", "sw"))).await.unwrap();
    assert!(synthesis.duration > 0.0 && !synthesis.audio_url.is_empty());
    // The address needs no credential.
    let (status, content_type, audio) = p.get_bytes(&synthesis.audio_url).await;
    assert_eq!(status, 200);
    assert!(content_type.starts_with("audio/") && audio.len() > 1000, "{content_type}, {} bytes", audio.len());
}

#[tokio::test]
async fn platform_speaks_a_public_sample_for_anyone_also_from_the_platforms_cache() {
    let p = on_platform!();
    let (_, _, raw) = p.get_bytes("/api/voice/samples").await;
    let samples: Value = serde_json::from_slice(&raw).unwrap();
    let sample = &samples["samples"][0];
    let params = SynthesizeParams::new(sample["text"].as_str().unwrap(), sample["language"].as_str().unwrap());
    let anonymous = p.client();
    let first = bounded(anonymous.voice().synthesize(&params)).await.unwrap();
    // Made before: the platform answers with the stored copy's address, which the SDK fetches.
    let again = bounded(anonymous.voice().synthesize(&params)).await.unwrap();
    assert!(first.data.len() > 1000);
    assert_eq!(again.data, first.data);
    assert_eq!(again.audio_url, first.audio_url);
}

#[tokio::test]
async fn platform_speech_on_the_free_plan_is_a_403_naming_the_plan() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let denied = bounded(client.voice().synthesize(&SynthesizeParams::new("Akwaaba", "en"))).await.unwrap_err();
    assert_eq!((denied.kind(), denied.status()), (ErrorKind::PermissionDenied, 403));
    assert!(denied.message().contains("Pro"), "{}", denied.message());
    let empty = bounded(client.voice().synthesize(&SynthesizeParams::new("", "en"))).await.unwrap_err();
    assert_eq!(empty.kind(), ErrorKind::BadRequest);
}

// Video.

#[tokio::test]
async fn platform_makes_a_video_for_enterprise_and_serves_it_without_a_credential() {
    let p = on_platform!();
    let client = p.enterprise().await;
    let job = bounded(client.video().create(&VideoParams::new("Akwaaba! Welcome to Kasa.", "en"))).await.unwrap();
    assert_eq!((job.status.as_str(), job.progress), ("queued", 0));
    // No video before the job has succeeded, and nothing asked for it.
    let early = bounded(client.video().download(&job)).await.unwrap_err();
    assert_eq!((early.kind(), early.code()), (ErrorKind::VideoNotReady, "video_not_ready"));
    // A wait that runs out of time leaves the job alone (a video takes far longer than a millisecond).
    let late = client.video().wait(&job.id, WaitOptions::new().timeout(Duration::from_millis(1))).await.unwrap_err();
    assert_eq!((late.kind(), late.status(), late.code()), (ErrorKind::WaitTimeout, 0, "wait_timeout"));
    let mut seen = Vec::new();
    let options = WaitOptions::new()
        .interval(Duration::from_millis(200))
        .timeout(Duration::from_secs(90))
        .on_progress(|read| seen.push(read.clone()));
    let done = client.video().wait(&job.id, options).await.expect("the video within 90 s");
    assert_eq!((done.status.as_str(), done.progress), ("succeeded", 100), "{done:?}");
    assert_eq!(seen.last(), Some(&done));
    assert!(seen.iter().all(|read| read.id == job.id));
    assert!(done.duration.unwrap_or(0.0) > 0.0);
    let video = bounded(client.video().download(&done)).await.unwrap();
    assert_eq!(video.content_type, "video/mp4");
    assert!(video.data.len() > 1000 && &video.data[4..8] == b"ftyp", "{} bytes", video.data.len());
    let jobs = bounded(client.video().list(Some(10), Some("succeeded"))).await.unwrap();
    assert_eq!(jobs.iter().map(|j| j.id.as_str()).collect::<Vec<_>>(), vec![job.id.as_str()]);
    // Someone else's job is not found.
    let other = p.enterprise().await;
    assert_eq!(bounded(other.video().get(&job.id)).await.unwrap_err().kind(), ErrorKind::NotFound);
}

#[tokio::test]
async fn platform_follows_a_video_job_with_its_events_until_done() {
    let p = on_platform!();
    let (owner, other) = (p.enterprise().await, p.enterprise().await);
    let job =
        bounded(owner.video().create(&VideoParams::new("Akwaaba! The events follow this video.", "en"))).await.unwrap();
    // Someone else's job is not found, like its get.
    assert_eq!(bounded(other.video().events(&job.id)).await.unwrap_err().kind(), ErrorKind::NotFound);

    let mut events = bounded(owner.video().events(&job.id)).await.unwrap();
    let mut seen = Vec::new();
    let reading = async {
        while let Some(event) = events.next().await? {
            seen.push(event);
        }
        Ok::<(), kasa::Error>(())
    };
    tokio::time::timeout(Duration::from_secs(90), reading).await.expect("the video within 90 s").unwrap();
    let first = seen.first().expect("a first event");
    assert!(matches!(first, VideoEvent::Job(_)) && ["queued", "running"].contains(&first.job().status.as_str()));
    let done = match seen.last() {
        Some(VideoEvent::Done(done)) => done.clone(),
        other => panic!("the last event is {other:?}"),
    };
    assert_eq!((done.id.as_str(), done.status.as_str(), done.progress), (job.id.as_str(), "succeeded", 100));
    assert!(seen[..seen.len() - 1].iter().all(|event| matches!(event, VideoEvent::Job(_))));
    assert!(seen.windows(2).all(|pair| pair[0].job().progress <= pair[1].job().progress), "{seen:?}");
    let again = bounded(owner.video().get(&job.id)).await.unwrap();
    assert!(again.video_url.is_some() && again.video_url == done.video_url);
}

#[tokio::test]
async fn platform_video_on_the_free_and_pro_plans_is_a_403_naming_enterprise() {
    let p = on_platform!();
    for client in [p.signed_in().await, p.pro().await] {
        let denied = bounded(client.video().create(&VideoParams::new("Hello", "en"))).await.unwrap_err();
        assert_eq!(denied.kind(), ErrorKind::PermissionDenied);
        assert!(denied.message().contains("Enterprise"), "{}", denied.message());
    }
    let none = bounded(p.client().video().list(None, None)).await.unwrap_err();
    assert_eq!(none.kind(), ErrorKind::Authentication);
}

// Analytics.

#[tokio::test]
async fn platform_analytics_count_the_callers_sessions_messages_and_calls() {
    let p = on_platform!();
    let client = p.signed_in().await;
    let session = bounded(client.sessions().create(&SessionCreateParams::new("nana", "Kumasi"))).await.unwrap();
    bounded(client.messages().send(&session.id, &MessageParams::new("Hello there").language("en"))).await.unwrap();
    eventually("the summary to count the session and the message", Duration::from_secs(30), || async {
        let summary = client.analytics().summary().await.unwrap();
        summary.sessions == 1
            && summary.messages >= 1
            && summary.persona_usage.get("nana") == Some(&1)
            && summary.language_usage.get("en").copied().unwrap_or(0) >= 1
    })
    .await;
    let summary = bounded(client.analytics().summary()).await.unwrap();
    assert!(!summary.usage.quota.period.is_empty());
    assert_eq!(summary.usage.quota.limit, Some(1000));
    eventually("the session to be listed with its messages", Duration::from_secs(30), || async {
        let sessions = client.analytics().sessions(Some(10)).await.unwrap();
        sessions.len() == 1 && sessions[0].id == session.id && sessions[0].message_count >= 2
    })
    .await;
    eventually("the calls to be counted", Duration::from_secs(30), || async {
        let usage = client.analytics().usage(Some(7), None).await.unwrap();
        usage.total_calls > 0 && usage.days.len() == 7 && !usage.by_endpoint.is_empty()
    })
    .await;
}

#[tokio::test]
async fn platform_analytics_take_a_key_with_the_analytics_scope_only() {
    let p = on_platform!();
    let owner = p.signed_in().await;
    let analytics =
        bounded(owner.api_keys().create(&ApiKeyCreateParams::new("Dashboards", vec![Scope::Analytics]))).await.unwrap();
    let chat =
        bounded(owner.api_keys().create(&ApiKeyCreateParams::new("Chat only", vec![Scope::Chat]))).await.unwrap();
    let keyed = p.keyed(&analytics.secret);
    assert!(!bounded(keyed.analytics().summary()).await.unwrap().usage.quota.period.is_empty());
    bounded(keyed.analytics().usage(None, Some(&chat.key.id))).await.unwrap();
    assert_eq!(bounded(keyed.analytics().usage(None, Some(UNKNOWN_ID))).await.unwrap_err().kind(), ErrorKind::NotFound);
    let denied = bounded(p.keyed(&chat.secret).analytics().summary()).await.unwrap_err();
    assert_eq!(denied.kind(), ErrorKind::PermissionDenied);
}
