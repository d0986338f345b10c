//! The client against a local fake server: what it sends, how it reads answers and failures, when it retries,
//! its timeouts, its streams (events, errors, stop, hang-up), versions of messages (edit, regenerate, select), and
//! its video wait (progress, timeout) and download.

mod fake;

use std::time::{Duration, Instant};

use fake::{event, Reply, Server, Step};
use futures_util::StreamExt;
use kasa::{
    ApiKeyCreateParams, AttachmentUploadParams, ChatMessage, CompletionParams, ErrorKind, MessageParams,
    MessageVersion, PageParams, RegenerateParams, ReplyEvent, Scope, SessionCreateParams, SynthesizeParams,
    WaitOptions,
};
use serde_json::json;

const SESSION: &str = "0123456789abcdef01234567";

fn reply_json(status: &str, content: &str) -> String {
    json!({
        "id": "m2", "role": "assistant", "content": content, "timestamp": "2026-01-01T00:00:00.000Z",
        "type": "text", "status": status, "userMessageId": "m1"
    })
    .to_string()
}

fn meta() -> Step {
    event("meta", r#"{"userMessageId":"m1","assistantMessageId":"m2","provider":"fake","model":"fake-model"}"#)
}

// What the client sends.

#[tokio::test]
async fn sends_the_key_then_the_token_the_user_agent_and_its_headers() {
    let server = Server::start(|_, _| Reply::json(200, json!([]))).await;
    let client = server.client().api_key("ksk_test").header("x-trace", "t-1").build().unwrap();
    client.personas().list().await.unwrap();
    client.set_token(Some("token-1".into()));
    client.personas().list().await.unwrap();
    client.set_token(None);
    client.personas().list().await.unwrap();
    let sent = server.requests();
    assert_eq!(sent[0].header("authorization"), Some("Bearer ksk_test"));
    assert_eq!(sent[1].header("authorization"), Some("Bearer token-1"));
    assert_eq!(sent[2].header("authorization"), Some("Bearer ksk_test"));
    assert_eq!(sent[0].header("user-agent"), Some(concat!("kasa-rust/", env!("CARGO_PKG_VERSION"))));
    assert_eq!(sent[0].header("x-trace"), Some("t-1"));
    assert_eq!(sent[0].header("accept"), Some("application/json"));
    assert_eq!((sent[0].method.as_str(), sent[0].path.as_str()), ("GET", "/api/personas"));
}

#[tokio::test]
async fn sends_bodies_queries_and_escaped_ids() {
    let server = Server::start(|request, _| match request.path.as_str() {
        p if p.starts_with("/api/chat/sessions?") => Reply::json(200, json!({"sessions": [], "nextCursor": null})),
        "/api/developer/keys" => Reply::json(201, json!({"secret": "ksk_x", "key": {"id": "k1", "name": "n"}})),
        _ => Reply::json(
            200,
            json!({"id": "s1", "personaId": "kasa", "title": "T", "createdAt": "2026-01-01T00:00:00Z"}),
        ),
    })
    .await;
    let client = server.client().build().unwrap();
    let page = client.sessions().list(PageParams::after("c 1&x", Some(5))).await.unwrap();
    assert_eq!(page.next_cursor, None);
    client.sessions().rename("../keys", "Maths").await.unwrap();
    let created = client
        .api_keys()
        .create(&ApiKeyCreateParams { expires_in_days: Some(30), ..ApiKeyCreateParams::new("CI", vec![Scope::Chat]) })
        .await
        .unwrap();
    assert_eq!(created.secret, "ksk_x");
    let sent = server.requests();
    assert_eq!(sent[0].path, "/api/chat/sessions?limit=5&cursor=c+1%26x");
    assert_eq!((sent[1].method.as_str(), sent[1].path.as_str()), ("PATCH", "/api/chat/sessions/..%2Fkeys"));
    assert_eq!(sent[1].json(), json!({"title": "Maths"}));
    assert_eq!(sent[2].json(), json!({"name": "CI", "scopes": ["chat"], "expiresInDays": 30}));
    assert_eq!(sent[2].header("content-type"), Some("application/json"));
}

#[tokio::test]
async fn creates_a_team_key_only_when_asked() {
    let server = Server::start(|_, _| {
        Reply::json(
            201,
            json!({"secret": "ksk_team", "key": {"id": "k1", "name": "CI", "teamId": "t1"}, "message": "Store it now"}),
        )
    })
    .await;
    let client = server.client().token("t").build().unwrap();
    let created = client.api_keys().create(&ApiKeyCreateParams::new("CI", vec![Scope::Chat]).for_team()).await.unwrap();
    assert_eq!(created.key.team_id.as_deref(), Some("t1"));
    client.api_keys().create(&ApiKeyCreateParams::new("Mine", vec![])).await.unwrap();
    let sent = server.requests();
    assert_eq!(sent[0].json(), json!({"name": "CI", "scopes": ["chat"], "team": true}));
    assert_eq!(sent[1].json(), json!({"name": "Mine"}));
}

// Failures.

#[tokio::test]
async fn reads_kasas_error_body_into_the_error() {
    let details = json!([{"path": "email", "message": "must be an e-mail address"}]);
    let server = Server::start(move |_, n| match n {
        0 => Reply::json(400, json!({"message": "Invalid input", "code": "validation_failed", "requestId": "r-9", "details": details.clone()})),
        1 => Reply::error(404, "not_found", "Session not found", &[]),
        _ => Reply::new(502, &[("x-request-id", "proxy-1"), ("content-type", "text/html")], "<html>Bad gateway</html>"),
    })
    .await;
    let client = server.client().max_retries(0).build().unwrap();
    let bad = client.sessions().create(&SessionCreateParams::new("kasa", "T")).await.unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::BadRequest);
    assert_eq!(
        (bad.status(), bad.code(), bad.message(), bad.request_id()),
        (400, "validation_failed", "Invalid input", Some("r-9"))
    );
    assert_eq!(bad.field_errors()[0].path, "email");
    let missing = client.sessions().get(SESSION, PageParams::default()).await.unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::NotFound);
    assert_eq!(missing.to_string(), "kasa: 404 not_found: Session not found (request id req-1)");
    let proxy = client.personas().list().await.unwrap_err();
    assert_eq!(proxy.kind(), ErrorKind::Server);
    assert!(proxy.is_unavailable());
    assert_eq!(
        (proxy.code(), proxy.message(), proxy.request_id()),
        ("upstream_unavailable", "HTTP error 502", Some("proxy-1"))
    );
    assert!(proxy.field_errors().is_empty());
}

#[tokio::test]
async fn a_refused_connection_is_a_connection_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = kasa::Client::builder().base_url(&url).api_key("").max_retries(0).build().unwrap();
    let error = client.personas().list().await.unwrap_err();
    assert_eq!((error.kind(), error.status(), error.code()), (ErrorKind::Connection, 0, "network_error"));
    assert!(error.is_connection());
    assert!(error.message().contains(&url), "{}", error.message());
}

#[tokio::test]
async fn an_answer_that_is_not_the_documented_json_is_a_decode_error() {
    let server = Server::start(|_, _| Reply::json(200, json!({"unexpected": true}))).await;
    let error = server.client().build().unwrap().personas().list().await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Decode);
    assert_eq!(server.requests().len(), 1, "not retried");
}

// Retries.

#[tokio::test]
async fn retries_a_read_after_503_and_429_waiting_what_retry_after_asks() {
    let server = Server::start(|_, n| match n {
        0 => Reply::error(503, "upstream_unavailable", "Away", &[]),
        1 => Reply::error(429, "rate_limited", "Slow down", &[("retry-after-ms", "300")]),
        _ => Reply::json(200, json!([])),
    })
    .await;
    let started = Instant::now();
    server.client().build().unwrap().personas().list().await.unwrap();
    assert_eq!(server.requests().len(), 3);
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn gives_up_after_the_last_retry_with_the_last_error() {
    let server = Server::start(|_, _| Reply::error(504, "upstream_timeout", "Too slow", &[])).await;
    let error = server.client().build().unwrap().personas().list().await.unwrap_err();
    assert_eq!((error.status(), error.code()), (504, "upstream_timeout"));
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn retries_a_creating_call_with_the_same_idempotency_key_and_never_one_without_a_key() {
    let server = Server::start(|_, n| match n {
        0 | 2 => Reply::hang_up(),
        _ => Reply::json(
            201,
            json!({"id": "s1", "personaId": "kasa", "title": "T", "createdAt": "2026-01-01T00:00:00Z"}),
        ),
    })
    .await;
    let client = server.client().build().unwrap();
    client.sessions().create(&SessionCreateParams::new("kasa", "T")).await.unwrap();
    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    let key = sent[0].header("idempotency-key").unwrap().to_string();
    assert_eq!(key.len(), 36);
    assert_eq!(sent[1].header("idempotency-key"), Some(key.as_str()));

    let without = server.client().idempotency_keys(false).build().unwrap();
    let error = without.sessions().create(&SessionCreateParams::new("kasa", "T")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Connection);
    assert_eq!(server.requests().len(), 3, "a creating call without a key is not retried");
    assert_eq!(server.requests()[2].header("idempotency-key"), None);

    // A key of the caller's own is sent as given.
    let mut params = SessionCreateParams::new("kasa", "T");
    params.idempotency_key = Some("my-key-1".into());
    without.sessions().create(&params).await.unwrap();
    assert_eq!(server.requests()[3].header("idempotency-key"), Some("my-key-1"));
}

#[tokio::test]
async fn never_retries_a_used_up_quota_a_refusal_or_a_wait_longer_than_the_longest() {
    let server = Server::start(|request, _| match request.path.as_str() {
        "/api/personas" => Reply::error(429, "quota_exceeded", "Monthly quota used up", &[("retry-after", "1")]),
        "/v1/models" => Reply::error(503, "upstream_unavailable", "Away", &[("x-should-retry", "false")]),
        _ => Reply::error(429, "rate_limited", "Later", &[("retry-after", "3600")]),
    })
    .await;
    let client = server.client().build().unwrap();
    let quota = client.personas().list().await.unwrap_err();
    assert!(quota.is_quota_exceeded());
    assert_eq!(quota.kind(), ErrorKind::RateLimit);
    client.completions().models().await.unwrap_err();
    let started = Instant::now();
    let later = client.languages().list(None).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(later.retry_after(), Some(Duration::from_secs(3600)));
    assert_eq!(server.requests().len(), 3, "each call sent once");
}

#[tokio::test]
async fn x_should_retry_true_retries_any_status() {
    let server = Server::start(|_, n| match n {
        0 => Reply::error(500, "internal", "Oops", &[("x-should-retry", "true")]),
        _ => Reply::json(200, json!([])),
    })
    .await;
    server.client().build().unwrap().personas().list().await.unwrap();
    assert_eq!(server.requests().len(), 2);
}

// Timeouts.

#[tokio::test]
async fn a_silent_server_is_a_timeout_error() {
    let server = Server::start(|_, _| Reply::silence()).await;
    let client = server.client().timeout(Some(Duration::from_millis(200))).max_retries(1).build().unwrap();
    let started = Instant::now();
    let error = client.personas().list().await.unwrap_err();
    assert_eq!((error.kind(), error.code()), (ErrorKind::Timeout, "timeout"));
    assert!(error.is_timeout() && error.is_connection());
    assert_eq!(server.requests().len(), 2, "a timeout of a read is retried");
    assert!(started.elapsed() < Duration::from_secs(5));
}

// Streams.

#[tokio::test]
async fn streams_meta_then_each_token_then_the_stored_reply() {
    let server = Server::start(|_, _| {
        Reply::events(vec![
            Step::Write(b": keep-alive\n\n".to_vec()),
            meta(),
            event("token", r#"{"text":"Akwaaba "}"#),
            Step::Sleep(Duration::from_millis(20)),
            event("token", r#"{"text":"o!"}"#),
            event("unknown", "{}"),
            event("done", &reply_json("complete", "Akwaaba o!")),
        ])
    })
    .await;
    let client = server.client().build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi").resumable()).await.unwrap();
    assert_eq!(stream.request_id(), Some("stream-1"));
    let mut events = Vec::new();
    while let Some(event) = stream.next().await.unwrap() {
        events.push(event);
    }
    assert_eq!(events.len(), 4);
    assert!(matches!(&events[0], ReplyEvent::Meta(m) if m.assistant_message_id == "m2" && m.provider == "fake"));
    assert_eq!(stream.assistant_message_id().as_deref(), Some("m2"));
    assert!(matches!(&events[2], ReplyEvent::Token(t) if t.text == "o!"));
    match &events[3] {
        ReplyEvent::Done(reply) => {
            assert_eq!((reply.content.as_str(), reply.status.as_str()), ("Akwaaba o!", kasa::STATUS_COMPLETE));
            assert_eq!(reply.user_message_id, "m1");
        }
        other => panic!("{other:?}"),
    }
    assert!(stream.next().await.unwrap().is_none());
    let sent = &server.requests()[0];
    assert_eq!(sent.header("accept"), Some("text/event-stream"));
    assert_eq!(sent.path, format!("/api/chat/sessions/{SESSION}/messages"));
    assert_eq!(sent.json(), json!({"role": "user", "content": "Hi", "resumable": true}));
}

#[tokio::test]
async fn the_events_are_also_a_futures_stream() {
    let server = Server::start(|_, _| {
        Reply::events(vec![meta(), event("token", r#"{"text":"a"}"#), event("done", &reply_json("complete", "a"))])
    })
    .await;
    let client = server.client().build().unwrap();
    let stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    let events: Vec<_> = stream.into_stream().collect().await;
    assert_eq!(events.len(), 3);
    assert!(events.iter().all(|e| e.is_ok()));
}

#[tokio::test]
async fn an_error_event_ends_the_stream_with_a_503() {
    let server = Server::start(|_, _| {
        Reply::events(vec![meta(), event("error", r#"{"message":"No AI provider could answer"}"#)])
    })
    .await;
    let client = server.client().build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    assert!(matches!(stream.next().await.unwrap(), Some(ReplyEvent::Meta(_))));
    let error = stream.next().await.unwrap_err();
    assert_eq!((error.kind(), error.status(), error.code()), (ErrorKind::Server, 503, "upstream_unavailable"));
    assert_eq!((error.message(), error.request_id()), ("No AI provider could answer", Some("stream-1")));
    assert!(stream.next().await.unwrap().is_none(), "nothing after the error");
}

#[tokio::test]
async fn a_stream_that_closes_before_its_end_is_a_stream_error_and_a_silent_one_a_timeout() {
    let server = Server::start(|_, n| match n {
        0 => Reply::events(vec![meta(), event("token", r#"{"text":"a"}"#)]),
        _ => Reply::events(vec![meta(), Step::Sleep(Duration::from_secs(30))]),
    })
    .await;
    let client = server.client().timeout(Some(Duration::from_millis(300))).build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    stream.next().await.unwrap();
    stream.next().await.unwrap();
    let broken = stream.next().await.unwrap_err();
    assert_eq!((broken.kind(), broken.code(), broken.status()), (ErrorKind::Stream, "stream_error", 0));

    let mut silent = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    silent.next().await.unwrap();
    let timeout = silent.next().await.unwrap_err();
    assert_eq!(timeout.kind(), ErrorKind::Timeout);
    let final_message = client.messages().stream(SESSION, &MessageParams::new("Hi")).await;
    // A stream that opened (the 2nd handler answer repeats): reading it to the end times out the same way.
    assert_eq!(final_message.unwrap().final_message().await.unwrap_err().kind(), ErrorKind::Timeout);
}

#[tokio::test]
async fn a_refused_stream_is_returned_by_the_call_that_opens_it() {
    let server = Server::start(|_, _| Reply::error(404, "not_found", "Session not found", &[])).await;
    let client = server.client().build().unwrap();
    let error = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotFound);
    let error = client.messages().resume(SESSION, "m2").await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotFound);
    assert_eq!(server.requests()[1].path, format!("/api/chat/sessions/{SESSION}/messages/m2/stream"));
}

fn stop_server() -> impl Fn(&fake::Request, usize) -> Reply + Send + Sync + 'static {
    |request, _| {
        if request.path.ends_with("/stop") {
            return Reply::new(200, &[("content-type", "application/json")], reply_json("stopped", "w1 "));
        }
        Reply::events(vec![
            Step::Sleep(Duration::from_millis(50)),
            meta(),
            event("token", r#"{"text":"w1 "}"#),
            Step::Sleep(Duration::from_millis(200)),
            event("done", &reply_json("stopped", "w1 ")),
        ])
    }
}

#[tokio::test]
async fn stop_before_the_first_event_reads_ahead_to_the_replys_id_and_keeps_the_events() {
    let server = Server::start(stop_server()).await;
    let client = server.client().build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    let stopped = stream.stop().await.unwrap();
    assert_eq!((stopped.id.as_str(), stopped.status.as_str()), ("m2", kasa::STATUS_STOPPED));
    let stop = &server.requests()[1];
    assert_eq!(
        (stop.method.as_str(), stop.path.as_str()),
        ("POST", format!("/api/chat/sessions/{SESSION}/messages/m2/stop").as_str())
    );
    assert!(matches!(stream.next().await.unwrap(), Some(ReplyEvent::Meta(_))));
    assert!(matches!(stream.next().await.unwrap(), Some(ReplyEvent::Token(_))));
    assert!(matches!(stream.next().await.unwrap(), Some(ReplyEvent::Done(r)) if r.status == "stopped"));
}

#[tokio::test]
async fn a_stop_handle_stops_from_another_task_once_the_id_is_known() {
    let server = Server::start(stop_server()).await;
    let client = server.client().build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    let handle = stream.stop_handle();
    let stopper = tokio::spawn(async move { handle.stop().await });
    let mut last = None;
    while let Some(event) = stream.next().await.unwrap() {
        last = Some(event);
    }
    assert_eq!(stopper.await.unwrap().unwrap().status, "stopped");
    assert!(matches!(last, Some(ReplyEvent::Done(_))));
    // A handle of a stream that ended without naming its reply says so instead of waiting.
    let empty = Server::start(|_, _| Reply::events(vec![])).await;
    let client = empty.client().build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    let handle = stream.stop_handle();
    assert_eq!(stream.next().await.unwrap_err().kind(), ErrorKind::Stream);
    drop(stream);
    assert_eq!(handle.stop().await.unwrap_err().kind(), ErrorKind::Stream);
}

#[tokio::test]
async fn dropping_a_stream_hangs_up() {
    let server = Server::start(|_, _| {
        Reply::events(vec![
            meta(),
            Step::Repeat(b"event: token\ndata: {\"text\":\"w \"}\n\n".to_vec(), Duration::from_millis(10)),
        ])
    })
    .await;
    let client = server.client().build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    for _ in 0..3 {
        stream.next().await.unwrap();
    }
    assert!(!server.hung_up());
    stream.close();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !server.hung_up() {
        assert!(Instant::now() < deadline, "the server never saw the hang-up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_too_large_event_ends_the_stream() {
    let server =
        Server::start(|_, _| Reply::events(vec![event("token", &format!("{{\"text\":\"{}\"}}", "x".repeat(200)))]))
            .await;
    let client = server.client().max_event_bytes(64).build().unwrap();
    let mut stream = client.messages().stream(SESSION, &MessageParams::new("Hi")).await.unwrap();
    let error = stream.next().await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Stream);
    assert!(error.message().contains("larger"), "{}", error.message());
}

#[tokio::test]
async fn streams_completion_chunks_to_done_and_reads_an_error_chunk_as_a_503() {
    let server = Server::start(|_, n| {
        let chunk = |text: &str| Step::Write(format!("data: {}\n\n", json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "kasa", "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]})).into_bytes());
        match n {
            0 => Reply::events(vec![chunk("Me "), chunk("din"), Step::Write(b"data: [DONE]\n\n".to_vec())]),
            _ => Reply::events(vec![chunk("Me "), Step::Write(b"data: {\"error\":{\"message\":\"All providers failed\"}}\n\n".to_vec())]),
        }
    })
    .await;
    let client = server.client().build().unwrap();
    let params =
        CompletionParams { include_usage: true, ..CompletionParams::new("kasa", vec![ChatMessage::user("Hi")]) };
    let mut stream = client.completions().stream(&params).await.unwrap();
    let mut text = String::new();
    while let Some(chunk) = stream.next().await.unwrap() {
        text.push_str(chunk.choices[0].delta.content.as_deref().unwrap_or(""));
    }
    assert_eq!(text, "Me din");
    let body = server.requests()[0].json();
    assert_eq!(body["stream"], json!(true));
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
    assert_eq!(body["messages"], json!([{"role": "user", "content": "Hi"}]));

    let mut failing = client.completions().stream(&params).await.unwrap();
    failing.next().await.unwrap();
    let error = failing.next().await.unwrap_err();
    assert_eq!((error.status(), error.message()), (503, "All providers failed"));
    assert!(failing.next().await.unwrap().is_none());
}

// Speech.

#[tokio::test]
async fn synthesize_gives_the_audio_and_fetches_a_stored_copy_without_the_credential() {
    let server = Server::start(|request, n| match (request.path.as_str(), n) {
        ("/api/voice/synthesize", 0) => Reply::new(
            200,
            &[("content-type", "audio/mpeg"), ("x-kasa-audio-url", "/api/voice/audio/a1")],
            b"ID3-audio".to_vec(),
        ),
        ("/api/voice/synthesize", _) => Reply::json(200, json!({"audioUrl": "/api/voice/audio/a1", "duration": 1.5})),
        _ => Reply::new(200, &[("content-type", "audio/mpeg; charset=binary")], b"ID3-audio".to_vec()),
    })
    .await;
    let client = server.client().api_key("ksk_voice").build().unwrap();
    let first = client.voice().synthesize(&SynthesizeParams::new("Akwaaba", "en")).await.unwrap();
    assert_eq!((first.data.as_slice(), first.content_type.as_str()), (&b"ID3-audio"[..], "audio/mpeg"));
    assert_eq!(first.audio_url.as_deref(), Some("/api/voice/audio/a1"));
    let again = client.voice().synthesize(&SynthesizeParams::new("Akwaaba", "en")).await.unwrap();
    assert_eq!(again, first);
    let sent = server.requests();
    assert_eq!(sent[0].header("accept"), Some("audio/mpeg, audio/ogg, audio/wav"));
    assert_eq!(sent[0].json(), json!({"text": "Akwaaba", "language": "en"}));
    assert!(sent[0].header("idempotency-key").is_some());
    assert_eq!(sent[2].path, "/api/voice/audio/a1");
    assert_eq!(sent[2].header("authorization"), None, "the stored copy is fetched without the key");
}

// Shared conversations.

const SHARE_TOKEN: &str = "Tt_-0123456789abcdefgh";

fn share_json() -> serde_json::Value {
    json!({
        "token": SHARE_TOKEN, "path": format!("/share/{SHARE_TOKEN}"), "sessionId": SESSION,
        "messageCount": 2, "sharedAt": "2026-11-24T09:30:00.000Z"
    })
}

fn share_server() -> impl Fn(&fake::Request, usize) -> Reply + Send + Sync + 'static {
    |request, _| {
        if request.path.starts_with("/api/chat/shared/") {
            return Reply::json(
                200,
                json!({
                    "title": "Algebra", "persona": {"id": "ticha", "name": "Ticha", "color": "#0a7"},
                    "sharedAt": "2026-11-24T09:30:00.000Z", "truncated": false,
                    "messages": [
                        {"id": "m1", "role": "user", "content": "What is 2 + 2?", "timestamp": "2026-11-24T09:29:00.000Z"},
                        {"id": "m2", "role": "assistant", "content": "4", "timestamp": "2026-11-24T09:29:01.000Z"}
                    ]
                }),
            );
        }
        match request.method.as_str() {
            "DELETE" => Reply::new(204, &[], ""),
            "POST" => Reply::json(201, share_json()),
            _ => Reply::json(200, share_json()),
        }
    }
}

#[tokio::test]
async fn the_owner_shares_reads_the_link_and_stops_sharing_with_the_credential() {
    let server = Server::start(share_server()).await;
    let client = server.client().token("owner-token").build().unwrap();
    let link = client.sessions().share("../s 1").await.unwrap();
    assert_eq!(
        link,
        kasa::ConversationShare {
            token: SHARE_TOKEN.into(),
            path: format!("/share/{SHARE_TOKEN}"),
            session_id: SESSION.into(),
            message_count: 2,
            shared_at: "2026-11-24T09:30:00.000Z".into(),
        }
    );
    assert_eq!(client.sessions().get_share("s1").await.unwrap(), link);
    client.sessions().stop_sharing("s1").await.unwrap();
    let sent = server.requests();
    let calls: Vec<String> = sent.iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    assert_eq!(
        calls,
        vec![
            "POST /api/chat/sessions/..%2Fs%201/share",
            "GET /api/chat/sessions/s1/share",
            "DELETE /api/chat/sessions/s1/share"
        ]
    );
    assert!(sent.iter().all(|r| r.header("authorization") == Some("Bearer owner-token")));
    // Sharing again creates nothing: it is retried without an Idempotency-Key.
    assert_eq!(sent[0].header("idempotency-key"), None);
}

#[tokio::test]
async fn reads_a_shared_conversation_without_sending_the_credential() {
    let server = Server::start(share_server()).await;
    let client = server.client().api_key("ksk_secret").build().unwrap();
    let shared = client.sessions().read_shared(SHARE_TOKEN).await.unwrap();
    assert_eq!((shared.title.as_str(), shared.persona.id.as_str(), shared.truncated), ("Algebra", "ticha", false));
    assert_eq!(shared.persona.color.as_deref(), Some("#0a7"));
    assert_eq!(shared.persona.avatar, None);
    let texts: Vec<(&str, &str)> = shared.messages.iter().map(|m| (m.role.as_str(), m.content.as_str())).collect();
    assert_eq!(texts, vec![("user", "What is 2 + 2?"), ("assistant", "4")]);
    client.sessions().read_shared("a/b?c").await.unwrap();
    let sent = server.requests();
    assert_eq!(sent[0].path, format!("/api/chat/shared/{SHARE_TOKEN}"));
    assert_eq!(sent[0].header("authorization"), None, "the shared page is read without the key");
    assert_eq!(sent[1].path, "/api/chat/shared/a%2Fb%3Fc");
}

#[tokio::test]
async fn sharing_is_retried_after_a_503_and_a_stopped_link_is_not_found() {
    let server = Server::start(|_, n| match n {
        0 => Reply::error(503, "upstream_unavailable", "Chat is unavailable", &[]),
        1 => Reply::json(200, share_json()),
        _ => Reply::error(404, "not_found", "This shared conversation does not exist", &[]),
    })
    .await;
    let client = server.client().token("t").build().unwrap();
    assert_eq!(client.sessions().share("s1").await.unwrap().token, SHARE_TOKEN);
    let gone = client.sessions().read_shared(SHARE_TOKEN).await.unwrap_err();
    assert_eq!((gone.kind(), gone.status(), gone.code()), (ErrorKind::NotFound, 404, "not_found"));
    assert_eq!(server.requests().len(), 3);
}

// Videos.

const JOB: &str = "Vj0123456789abcdefghij";

fn video_json(status: &str, progress: u8) -> serde_json::Value {
    let mut job = json!({
        "id": JOB, "status": status, "progress": progress, "prompt": "Akwaaba!", "language": "en",
        "renderer": "offline", "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:01.000Z"
    });
    if status == kasa::VIDEO_SUCCEEDED {
        job["videoUrl"] = json!(format!("/api/video/files/{JOB}"));
        job["duration"] = json!(2.5);
    }
    if status == kasa::VIDEO_FAILED {
        job["error"] = json!("The video could not be rendered.");
    }
    job
}

#[tokio::test]
async fn wait_reports_each_job_read_and_stops_once_it_has_succeeded() {
    let server = Server::start(|_, n| match n {
        0 => Reply::json(200, video_json("queued", 0)),
        1 => Reply::json(200, video_json("running", 50)),
        2 => Reply::json(200, video_json("succeeded", 100)),
        _ => Reply::error(500, "internal", "read after the end", &[]),
    })
    .await;
    let client = server.client().build().unwrap();
    let mut seen = Vec::new();
    let options = WaitOptions::new()
        .interval(Duration::from_millis(10))
        .on_progress(|job| seen.push((job.status.clone(), job.progress)));
    let job = client.video().wait(JOB, options).await.unwrap();
    assert_eq!((job.status.as_str(), job.progress), ("succeeded", 100));
    assert_eq!(job.video_url.as_deref(), Some("/api/video/files/Vj0123456789abcdefghij"));
    assert_eq!(seen, vec![("queued".into(), 0), ("running".into(), 50), ("succeeded".into(), 100)]);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let sent = server.requests();
    assert_eq!(sent.len(), 3, "no read after the job ended");
    assert!(sent
        .iter()
        .all(|r| (r.method.as_str(), r.path.as_str()) == ("GET", "/api/video/generations/Vj0123456789abcdefghij")));
}

#[tokio::test]
async fn wait_gives_a_failed_job_as_an_answer_takes_a_bare_interval_and_runs_on_its_own_task() {
    let server = Server::start(|_, n| match n {
        0 => Reply::json(200, video_json("running", 30)),
        _ => Reply::json(200, video_json("failed", 30)),
    })
    .await;
    let client = server.client().build().unwrap();
    // On a task of its own: the wait is a Send future.
    let waiting = tokio::spawn(async move { client.video().wait(JOB, Duration::from_millis(10)).await });
    let job = waiting.await.unwrap().unwrap();
    assert_eq!((job.status.as_str(), job.error.as_deref()), ("failed", Some("The video could not be rendered.")));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn wait_gives_up_after_its_timeout_with_the_last_job_read() {
    let server = Server::start(|_, _| Reply::json(200, video_json("running", 40))).await;
    let client = server.client().build().unwrap();
    let mut reads = 0;
    let options = WaitOptions {
        interval: Duration::from_millis(20),
        timeout: Duration::from_millis(150),
        on_progress: Some(Box::new(|_: &kasa::VideoJob| reads += 1)),
    };
    let started = Instant::now();
    let error = client.video().wait(JOB, options).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2), "the wait ended at its timeout");
    assert_eq!((error.kind(), error.status(), error.code()), (ErrorKind::WaitTimeout, 0, "wait_timeout"));
    assert_eq!(error.code(), kasa::CODE_WAIT_TIMEOUT);
    assert_eq!(
        error.message(),
        "The video job Vj0123456789abcdefghij had not finished after 150 ms (status running, 40% done)."
    );
    assert_eq!(error.details().unwrap()["id"], json!(JOB));
    let last = error.video_job().expect("the last job read");
    assert_eq!((last.id.as_str(), last.status.as_str(), last.progress), (JOB, "running", 40));
    assert!(!error.is_connection() && !error.is_timeout());
    // A request the wait wrote just before it gave up may reach the test server's log a moment later (on a busy
    // machine, well after); a wait that went on polling would add a read every 20 ms meanwhile, which the checks
    // below see.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let read = server.requests().len();
    assert!(read >= 2, "read {read} times");
    // Every answer read was reported; the timeout may have cut off the last request before its answer.
    assert!(reads == read || reads + 1 == read, "on_progress saw {reads} of {read} reads");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(server.requests().len(), read, "no read after the wait gave up");
}

#[tokio::test]
async fn a_wait_that_runs_out_before_the_first_answer_has_no_job() {
    let server = Server::start(|_, _| Reply::silence()).await;
    let client = server.client().build().unwrap();
    let error = client.video().wait(JOB, WaitOptions::default().timeout(Duration::from_millis(100))).await.unwrap_err();
    assert_eq!((error.kind(), error.code()), (ErrorKind::WaitTimeout, "wait_timeout"));
    assert_eq!(error.message(), "The video job Vj0123456789abcdefghij had not finished after 100 ms.");
    assert!(error.video_job().is_none());
    assert_eq!(error.details(), Some(&json!({"id": JOB, "job": null})));
}

#[tokio::test]
async fn download_of_a_job_without_a_video_is_video_not_ready_and_sends_nothing() {
    let server =
        Server::start(|_, _| Reply::new(200, &[("content-type", "video/mp4")], b"0000ftypisom".to_vec())).await;
    let client = server.client().build().unwrap();
    for status in ["queued", "running", "failed"] {
        let job: kasa::VideoJob = serde_json::from_value(video_json(status, 10)).unwrap();
        let error = client.video().download(&job).await.unwrap_err();
        assert_eq!((error.kind(), error.status(), error.code()), (ErrorKind::VideoNotReady, 0, "video_not_ready"));
        assert_eq!(
            error.message(),
            format!("The video job {JOB} has no video (its status is {status}): wait for it to succeed first.")
        );
        assert_eq!(error.details().unwrap()["status"], json!(status));
        assert_eq!(error.video_job(), Some(job));
    }
    assert!(server.requests().is_empty(), "nothing was sent");
    let done: kasa::VideoJob = serde_json::from_value(video_json("succeeded", 100)).unwrap();
    let video = client.video().download(&done).await.unwrap();
    assert_eq!((video.data.as_slice(), video.content_type.as_str()), (&b"0000ftypisom"[..], "video/mp4"));
    assert_eq!(server.requests()[0].header("authorization"), None);
}

fn video_event(name: &str, job: serde_json::Value) -> Step {
    event(name, &job.to_string())
}

#[tokio::test]
async fn video_events_follow_a_job_until_done() {
    let server = Server::start(|_, _| {
        let mut queued = video_json("queued", 0);
        queued["queuePosition"] = json!(1);
        Reply::events(vec![
            video_event("job", queued),
            Step::Write(b": ping\n\n".to_vec()),
            video_event("job", video_json("running", 40)),
            video_event("done", video_json("succeeded", 100)),
        ])
    })
    .await;
    let client = server.client().api_key("ksk_voice").build().unwrap();
    let mut events = client.video().events(JOB).await.unwrap();
    assert_eq!(events.request_id(), Some("stream-1"));
    let mut seen = Vec::new();
    while let Some(event) = events.next().await.unwrap() {
        seen.push(event);
    }
    let summary: Vec<_> = seen
        .iter()
        .map(|e| (matches!(e, kasa::VideoEvent::Done(_)), e.job().status.as_str(), e.job().progress))
        .collect();
    assert_eq!(summary, vec![(false, "queued", 0), (false, "running", 40), (true, "succeeded", 100)]);
    match &seen[0] {
        kasa::VideoEvent::Job(first) => assert_eq!(first.queue_position, Some(1)),
        other => panic!("first event {other:?}"),
    }
    match &seen[1] {
        kasa::VideoEvent::Job(second) => assert_eq!(second.queue_position, None),
        other => panic!("second event {other:?}"),
    }
    assert_eq!(seen[2].job().video_url.as_deref(), Some("/api/video/files/Vj0123456789abcdefghij"));
    assert!(events.next().await.unwrap().is_none(), "nothing after done");
    let sent = server.requests();
    assert_eq!(
        (sent[0].method.as_str(), sent[0].path.as_str()),
        ("GET", "/api/video/generations/Vj0123456789abcdefghij/events")
    );
    assert_eq!(sent[0].header("accept"), Some("text/event-stream"));
    assert_eq!(sent[0].header("authorization"), Some("Bearer ksk_voice"));
}

#[tokio::test]
async fn video_events_end_with_a_stream_error_on_an_error_event_or_a_dropped_connection() {
    let server = Server::start(|_, n| match n {
        0 => Reply::events(vec![
            video_event("job", video_json("running", 30)),
            event("error", r#"{"message":"The video job no longer exists (it may have expired)."}"#),
        ]),
        _ => Reply::events(vec![video_event("job", video_json("running", 30))]),
    })
    .await;
    let client = server.client().build().unwrap();
    for expected in [
        "The video job no longer exists (it may have expired).",
        "The connection closed before the stream was complete.",
    ] {
        let mut events = client.video().events(JOB).await.unwrap();
        assert_eq!(events.next().await.unwrap().map(|e| e.job().progress), Some(30));
        let error = events.next().await.unwrap_err();
        assert_eq!((error.kind(), error.status(), error.code()), (ErrorKind::Stream, 0, "stream_error"));
        assert_eq!((error.message(), error.request_id()), (expected, Some("stream-1")));
        assert!(events.next().await.unwrap().is_none(), "nothing after the error");
    }
}

#[tokio::test]
async fn video_events_refuse_an_unknown_job_or_too_many_streams_before_reading() {
    let server = Server::start(|_, n| match n {
        0 => Reply::error(404, "not_found", "No video job with that id", &[]),
        _ => Reply::error(429, "too_many_video_streams", "You are already following 5 videos here", &[]),
    })
    .await;
    let client = server.client().max_retries(0).build().unwrap();
    assert_eq!(client.video().events("unknown").await.unwrap_err().kind(), ErrorKind::NotFound);
    let limited = client.video().events(JOB).await.unwrap_err();
    assert_eq!((limited.kind(), limited.code()), (ErrorKind::RateLimit, "too_many_video_streams"));
}

#[tokio::test]
async fn dropping_video_events_hangs_up() {
    let server = Server::start(|_, _| {
        let running = format!("event: job\ndata: {}\n\n", video_json("running", 10));
        Reply::events(vec![Step::Repeat(running.into_bytes(), Duration::from_millis(10))])
    })
    .await;
    let client = server.client().build().unwrap();
    let mut events = client.video().events(JOB).await.unwrap();
    assert_eq!(events.next().await.unwrap().map(|e| e.job().progress), Some(10));
    assert!(!server.hung_up());
    events.close();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !server.hung_up() {
        assert!(Instant::now() < deadline, "the server never saw the hang-up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// Attachments.

const ATTACHMENT: &str = "AAAAAAAAAAAAAAAAAAAAAA";

fn attachment_json() -> serde_json::Value {
    json!({
        "id": ATTACHMENT, "kind": "image", "name": "kente.png", "mediaType": "image/png", "size": 4,
        "createdAt": "2026-11-24T09:30:00.000Z", "hasThumbnail": true
    })
}

#[tokio::test]
async fn uploads_the_bytes_as_the_body_with_the_name_and_the_same_key_on_a_retry() {
    let server = Server::start(|_, n| match n {
        0 => Reply::hang_up(),
        _ => Reply::json(201, attachment_json()),
    })
    .await;
    let client = server.client().build().unwrap();
    let params = AttachmentUploadParams::new("my kente.png");
    let stored = client.attachments().upload(vec![0x89, b'P', b'N', b'G'], &params).await.unwrap();
    assert_eq!((stored.id.as_str(), stored.kind.as_str(), stored.size), (ATTACHMENT, kasa::ATTACHMENT_IMAGE, 4));
    assert_eq!((stored.pages, stored.has_thumbnail), (None, true));
    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    for request in &sent {
        assert_eq!(
            (request.method.as_str(), request.path.as_str()),
            ("POST", "/api/chat/attachments?name=my+kente.png")
        );
        assert_eq!(request.body, vec![0x89, b'P', b'N', b'G']);
        assert_eq!(request.header("content-type"), Some("application/octet-stream"));
    }
    assert!(sent[0].header("idempotency-key").is_some());
    assert_eq!(sent[0].header("idempotency-key"), sent[1].header("idempotency-key"));

    let declared =
        AttachmentUploadParams { content_type: Some("text/markdown".into()), ..AttachmentUploadParams::new("n.md") };
    client.attachments().upload(&b"# Notes"[..], &declared).await.unwrap();
    assert_eq!(server.requests()[2].header("content-type"), Some("text/markdown"));

    let unnamed = client.attachments().upload(vec![1], &AttachmentUploadParams::new(" ")).await.unwrap_err();
    assert_eq!(unnamed.kind(), ErrorKind::Config);
    assert_eq!(server.requests().len(), 3, "an upload without a name is not sent");
}

#[tokio::test]
async fn attachment_refusals_keep_their_kind_status_and_code() {
    let server = Server::start(|_, n| match n {
        0 => Reply::error(403, "forbidden", "Pro only", &[]),
        1 => Reply::error(409, "conflict", "Too many files", &[]),
        2 => Reply::error(413, "payload_too_large", "Too large", &[]),
        3 => Reply::error(415, "unsupported_media_type", "Not accepted", &[]),
        4 => Reply::new(413, &[("content-type", "text/html")], "<h1>Too large</h1>"),
        _ => Reply::new(415, &[("content-type", "text/html")], "<h1>No</h1>"),
    })
    .await;
    let client = server.client().max_retries(0).build().unwrap();
    let mut errors = Vec::new();
    for _ in 0..6 {
        errors.push(client.attachments().upload(vec![1], &AttachmentUploadParams::new("a.png")).await.unwrap_err());
    }
    let kinds: Vec<_> = errors.iter().map(|e| (e.kind(), e.status(), e.code().to_string())).collect();
    assert_eq!(
        kinds,
        vec![
            (ErrorKind::PermissionDenied, 403, "forbidden".to_string()),
            (ErrorKind::Conflict, 409, "conflict".to_string()),
            (ErrorKind::BadRequest, 413, "payload_too_large".to_string()),
            (ErrorKind::BadRequest, 415, "unsupported_media_type".to_string()),
            (ErrorKind::BadRequest, 413, "payload_too_large".to_string()),
            (ErrorKind::BadRequest, 415, "unsupported_media_type".to_string()),
        ]
    );
    assert!(errors[2].is_payload_too_large() && !errors[2].is_unsupported_media_type());
    assert!(errors[3].is_unsupported_media_type() && !errors[3].is_payload_too_large());
}

#[tokio::test]
async fn reads_a_file_and_its_thumbnail_and_deletes_one() {
    let server = Server::start(|request, _| match request.method.as_str() {
        "DELETE" => Reply::new(204, &[], Vec::new()),
        _ if request.path.ends_with("/thumbnail") => Reply::new(
            200,
            &[("content-type", "image/webp"), ("content-disposition", "inline; filename=\"kente.png.webp\"")],
            b"RIFF".to_vec(),
        ),
        _ => Reply::new(
            200,
            &[
                ("content-type", "text/plain; charset=utf-8"),
                ("content-disposition", "attachment; filename=\"_ntoa.txt\"; filename*=UTF-8''%C9%94ntoa.txt"),
            ],
            b"Bonwire".to_vec(),
        ),
    })
    .await;
    let client = server.client().token("t").build().unwrap();
    let file = client.attachments().get("id/with?odd").await.unwrap();
    assert_eq!((file.data.as_slice(), file.content_type.as_str()), (&b"Bonwire"[..], "text/plain"));
    assert_eq!(file.name.as_deref(), Some("\u{254}ntoa.txt"));
    let preview = client.attachments().thumbnail(ATTACHMENT).await.unwrap();
    assert_eq!(
        (preview.data.as_slice(), preview.content_type.as_str(), preview.name.as_deref()),
        (&b"RIFF"[..], "image/webp", Some("kente.png.webp"))
    );
    client.attachments().delete(ATTACHMENT).await.unwrap();
    let seen: Vec<String> = server.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    assert_eq!(
        seen,
        vec![
            "GET /api/chat/attachments/id%2Fwith%3Fodd".to_string(),
            format!("GET /api/chat/attachments/{ATTACHMENT}/thumbnail"),
            format!("DELETE /api/chat/attachments/{ATTACHMENT}"),
        ]
    );
}

#[tokio::test]
async fn sends_attachment_ids_with_a_message_only_when_given_and_reads_them_back() {
    let server = Server::start(|_, _| {
        Reply::json(
            200,
            json!({
                "id": "m2", "role": "user", "content": "What is this?", "timestamp": "2026-01-01T00:00:00.000Z",
                "type": "text", "status": "complete", "userMessageId": "m1",
                "attachments": [{"id": ATTACHMENT, "kind": "image", "name": "k.png", "mediaType": "image/png", "size": 4}]
            }),
        )
    })
    .await;
    let client = server.client().build().unwrap();
    let reply =
        client.messages().send(SESSION, &MessageParams::new("What is this?").attachments([ATTACHMENT])).await.unwrap();
    let attachments = reply.attachments.clone().unwrap();
    assert_eq!(
        (attachments[0].id.as_str(), attachments[0].media_type.as_str(), attachments[0].size),
        (ATTACHMENT, "image/png", 4)
    );
    client.messages().send(SESSION, &MessageParams::new("Hello")).await.unwrap();
    let sent = server.requests();
    assert_eq!(sent[0].json()["attachmentIds"], json!([ATTACHMENT]));
    assert!(sent[1].json().get("attachmentIds").is_none());
}

// Versions of messages.

fn versioned_reply_json(content: &str, index: u32, sibling_ids: &[&str]) -> serde_json::Value {
    json!({
        "id": sibling_ids[index as usize], "role": "assistant", "content": content,
        "timestamp": "2026-01-01T00:00:00.000Z", "type": "text", "status": "complete", "userMessageId": "u2",
        "version": {"index": index, "count": sibling_ids.len(), "siblingIds": sibling_ids}
    })
}

#[tokio::test]
async fn edits_a_message_whole_and_streamed_as_a_creating_post_with_the_new_text() {
    let server = Server::start(|_, n| match n {
        // A lost answer: the edit is sent again with the same key.
        0 => Reply::hang_up(),
        1 => Reply::json(
            201,
            json!({
                "id": "a2", "role": "assistant", "content": "Abuja.", "timestamp": "2026-01-01T00:00:00.000Z",
                "type": "text", "status": "complete", "userMessageId": "u2"
            }),
        ),
        _ => Reply::events(vec![
            event("meta", r#"{"userMessageId":"u3","assistantMessageId":"a3","provider":"fake","model":"fake-model"}"#),
            event("token", r#"{"text":"Sunny."}"#),
            event("done", &versioned_reply_json("Sunny.", 0, &["a3"]).to_string()),
        ]),
    })
    .await;
    let client = server.client().build().unwrap();
    let reply =
        client.messages().edit(SESSION, "u1", &MessageParams::new("Capital of Nigeria?").language("en")).await.unwrap();
    assert_eq!((reply.id.as_str(), reply.content.as_str(), reply.user_message_id.as_str()), ("a2", "Abuja.", "u2"));
    assert_eq!(reply.version, None);

    let params = MessageParams::new("Is it sunny?").attachments(Vec::<String>::new()).resumable();
    let mut stream = client.messages().edit_stream(SESSION, "u1", &params).await.unwrap();
    assert!(matches!(stream.next().await.unwrap(), Some(ReplyEvent::Meta(m)) if m.user_message_id == "u3"));
    assert_eq!(stream.assistant_message_id().as_deref(), Some("a3"));
    let done = stream.final_message().await.unwrap();
    assert_eq!((done.content.as_str(), done.version.as_ref().map(|v| v.count)), ("Sunny.", Some(1)));

    let sent = server.requests();
    assert_eq!(sent.len(), 3);
    let path = format!("/api/chat/sessions/{SESSION}/messages/u1/edit");
    for request in &sent {
        assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", path.as_str()));
    }
    assert_eq!(sent[0].json(), json!({"role": "user", "content": "Capital of Nigeria?", "language": "en"}));
    assert_eq!(sent[1].json(), sent[0].json());
    let key = sent[0].header("idempotency-key").unwrap();
    assert_eq!(key.len(), 36);
    assert_eq!(sent[1].header("idempotency-key"), Some(key), "a retry sends the same key");
    assert_eq!(sent[1].header("accept"), Some("application/json"));
    assert_eq!(sent[2].header("accept"), Some("text/event-stream"));
    assert_ne!(sent[2].header("idempotency-key"), Some(key), "each call has its own key");
    // An empty list drops the edited message's attachments (left out, they are kept).
    assert_eq!(
        sent[2].json(),
        json!({"role": "user", "content": "Is it sunny?", "resumable": true, "attachmentIds": []})
    );
}

#[tokio::test]
async fn regenerates_an_answer_whole_and_streamed_with_its_version() {
    let server = Server::start(|request, _| {
        if request.header("accept") == Some("text/event-stream") {
            return Reply::events(vec![
                event("meta", r#"{"userMessageId":"u2","assistantMessageId":"a4","provider":"fake","model":"m"}"#),
                event("token", r#"{"text":"It is "}"#),
                event("token", r#"{"text":"Abuja."}"#),
                event("done", &versioned_reply_json("It is Abuja.", 2, &["a2", "a3", "a4"]).to_string()),
            ]);
        }
        Reply::json(201, versioned_reply_json("Abuja, since 1991.", 1, &["a2", "a3"]))
    })
    .await;
    let client = server.client().build().unwrap();
    let second = client.messages().regenerate(SESSION, "a2", &RegenerateParams::new()).await.unwrap();
    assert_eq!(second.content, "Abuja, since 1991.");
    assert_eq!(
        second.version,
        Some(MessageVersion { index: 1, count: 2, sibling_ids: vec!["a2".into(), "a3".into()] })
    );

    let params = RegenerateParams::new().language("en").resumable();
    let mut stream = client.messages().regenerate_stream(SESSION, "a2", &params).await.unwrap();
    let mut events = Vec::new();
    while let Some(event) = stream.next().await.unwrap() {
        events.push(event);
    }
    assert_eq!(events.len(), 4);
    match &events[3] {
        ReplyEvent::Done(reply) => {
            assert_eq!(reply.content, "It is Abuja.");
            assert_eq!(reply.version.as_ref().map(|v| (v.index, v.count)), Some((2, 3)));
        }
        other => panic!("{other:?}"),
    }
    // `resumable` is for streams only.
    client.messages().regenerate(SESSION, "a2", &RegenerateParams::new().resumable()).await.unwrap();

    let sent = server.requests();
    let path = format!("/api/chat/sessions/{SESSION}/messages/a2/regenerate");
    for request in &sent {
        assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", path.as_str()));
        assert_eq!(request.header("idempotency-key").map(str::len), Some(36));
    }
    assert_eq!(sent[0].json(), json!({}));
    assert_eq!(sent[0].header("accept"), Some("application/json"));
    assert_eq!(sent[1].json(), json!({"language": "en", "resumable": true}));
    assert_eq!(sent[1].header("accept"), Some("text/event-stream"));
    assert_eq!(sent[2].json(), json!({}));
}

#[tokio::test]
async fn selects_a_version_and_gives_the_session_with_its_branch_retried_as_safe_to_repeat() {
    let server = Server::start(|_, n| match n {
        0 => Reply::error(503, "service_unavailable", "Try again", &[("retry-after", "0")]),
        _ => Reply::json(
            200,
            json!({
                "id": SESSION, "personaId": "kasa", "title": "Versions", "createdAt": "2026-01-01T00:00:00.000Z",
                "messages": [
                    {"id": "u1", "role": "user", "content": "Capital of Ghana?", "timestamp": "2026-01-01T00:00:00.000Z",
                     "type": "text", "status": "complete",
                     "version": {"index": 0, "count": 2, "siblingIds": ["u1", "u2"]}},
                    {"id": "a1", "role": "assistant", "content": "Accra.", "timestamp": "2026-01-01T00:00:01.000Z",
                     "type": "text", "status": "complete", "provider": "fake", "model": "m"}
                ],
                "nextCursor": null
            }),
        ),
    })
    .await;
    let client = server.client().build().unwrap();
    let shown = client.messages().select_version(SESSION, "u1", Some(50)).await.unwrap();
    assert_eq!((shown.id.as_str(), shown.title.as_str(), shown.next_cursor.as_deref()), (SESSION, "Versions", None));
    let contents: Vec<&str> = shown.messages.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(contents, ["Capital of Ghana?", "Accra."]);
    assert_eq!(shown.messages[0].version.as_ref().map(|v| (v.index, v.count)), Some((0, 2)));
    client.messages().select_version(SESSION, "u1", None).await.unwrap();

    let sent = server.requests();
    assert_eq!(sent.len(), 3, "the 503 was retried");
    let path = format!("/api/chat/sessions/{SESSION}/messages/u1/select");
    assert_eq!((sent[0].method.as_str(), sent[0].path.as_str()), ("POST", format!("{path}?limit=50").as_str()));
    assert_eq!(sent[1].path, sent[0].path);
    assert_eq!((sent[2].method.as_str(), sent[2].path.as_str()), ("POST", path.as_str()));
    assert!(sent.iter().all(|r| r.header("idempotency-key").is_none() && r.body.is_empty()));
}

#[tokio::test]
async fn editing_an_answer_or_regenerating_a_question_is_a_bad_request_naming_the_message() {
    let server = Server::start(|request, _| {
        let message = if request.path.ends_with("/edit") {
            "Only your own messages can be edited, and this one is an answer: regenerate it for another version."
        } else if request.path.ends_with("/regenerate") {
            "Only an answer can be regenerated, and this one is your message: edit it for another version."
        } else {
            return Reply::error(404, "not_found", "Message not found", &[]);
        };
        let body = json!({
            "message": message, "code": "validation_failed", "requestId": "r-7",
            "details": [{"path": "messageId", "message": "not this kind of message"}]
        });
        Reply::json(400, body)
    })
    .await;
    let client = server.client().build().unwrap();
    let messages = client.messages();
    let errors = vec![
        messages.edit(SESSION, "a1", &MessageParams::new("x")).await.unwrap_err(),
        messages.edit_stream(SESSION, "a1", &MessageParams::new("x")).await.unwrap_err(),
        messages.regenerate(SESSION, "u1", &RegenerateParams::new()).await.unwrap_err(),
        messages.regenerate_stream(SESSION, "u1", &RegenerateParams::new()).await.unwrap_err(),
    ];
    for (n, error) in errors.iter().enumerate() {
        assert_eq!(
            (error.kind(), error.status(), error.code(), error.request_id()),
            (ErrorKind::BadRequest, 400, "validation_failed", Some("r-7"))
        );
        assert!(error.message().starts_with(if n < 2 { "Only your own" } else { "Only an answer" }), "{error}");
        assert_eq!(error.field_errors()[0].path, "messageId");
    }
    let missing = messages.select_version(SESSION, "nope", None).await.unwrap_err();
    assert_eq!((missing.kind(), missing.code()), (ErrorKind::NotFound, "not_found"));
    assert_eq!(server.requests().len(), 5, "a 400 and a 404 are never retried");
}
