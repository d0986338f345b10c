//! The crate's types against the OpenAPI document (`GET /api/openapi.json`), as `sdks/openapi-snapshot.js`
//! flattens it: the file named by `KASA_OPENAPI_SNAPSHOT` (the jest suite writes one), else the script's output when
//! node can run it (without either, the tests say so and return).
//!
//! serde's field names cannot be read at run time, so each answer type reads the document's samples of its schema
//! and writes itself back: with every property present, no property may be lost (a field the type lacks or names
//! differently) and no other key may appear (a field the API does not send); with only the required properties (and
//! nulls where the API may send null), it must still read (a field it requires that the API may leave out or send as
//! null). Request bodies with every option set may only hold keys the API accepts (the message calls' bodies as a
//! local fake server receives them), and enums and status constants must know every value of the API.

#[allow(dead_code)]
mod fake;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use fake::{Reply, Server};
use kasa::{
    ApiKeyCreateParams, Capability, ChatMessage, CompletionParams, ConversationShare, CreatedApiKey, DetectHints,
    DetectedLanguage, GeoLookup, LanguageList, LoginParams, MessageParams, MessageVersion, ModelList, Persona,
    RegenerateParams, RegisterParams, ResponseFormat, Scope, Session, SessionCreateParams, SessionPage,
    SessionWithMessages, SharedConversation, StoredMessage, Synthesis, SynthesizeParams, Tool, ToolChoice, User,
    MeUser,
    VideoJob, VideoJobList, VideoParams, Voice,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Keys a type keeps on purpose although the document does not list them: (schema, key path in its sample).
const KNOWN_EXTRA: &[(&str, &str)] = &[];
/// Keys of the document a type leaves out on purpose: (schema, key path in its sample).
const KNOWN_MISSING: &[(&str, &str)] = &[
    // Always null: Kasa gives no log probabilities.
    ("OpenAIChatCompletion", "choices[].logprobs"),
    ("OpenAIChatCompletionChunk", "choices[].logprobs"),
];

fn snapshot() -> Option<Value> {
    if let Ok(path) = std::env::var("KASA_OPENAPI_SNAPSHOT") {
        let text = std::fs::read_to_string(path).expect("KASA_OPENAPI_SNAPSHOT is readable");
        return Some(serde_json::from_str(&text).expect("the snapshot is JSON"));
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi-snapshot.js");
    match Command::new("node").arg(script).output() {
        Ok(out) if out.status.success() => Some(serde_json::from_slice(&out.stdout).expect("the snapshot is JSON")),
        _ => {
            eprintln!("no KASA_OPENAPI_SNAPSHOT and node could not write one: build shared/contracts first");
            None
        }
    }
}

fn sample<'a>(snapshot: &'a Value, shape: &str, which: &str) -> &'a Value {
    snapshot["samples"][shape][which].as_object().map(|_| &snapshot["samples"][shape][which]).unwrap_or_else(|| {
        panic!("the document has no {}", shape);
    })
}

/// The keys (as paths: `user.id`, `messages[].role`) of `sent` that `kept` lacks, and those `kept` adds.
fn diff(sent: &Value, kept: &Value, path: &str, lost: &mut Vec<String>, added: &mut Vec<String>) {
    match (sent, kept) {
        (Value::Object(sent), Value::Object(kept)) => {
            for (key, value) in sent {
                let at = if path.is_empty() { key.clone() } else { format!("{}.{}", path, key) };
                match kept.get(key) {
                    Some(again) => diff(value, again, &at, lost, added),
                    None => lost.push(at),
                }
            }
            for key in kept.keys().filter(|key| !sent.contains_key(*key)) {
                added.push(if path.is_empty() { key.clone() } else { format!("{}.{}", path, key) });
            }
        }
        (Value::Array(sent), Value::Array(kept)) => {
            for (value, again) in sent.iter().zip(kept.iter()) {
                diff(value, again, &format!("{}[]", path), lost, added);
            }
        }
        _ => {}
    }
}

/// What goes wrong when `T` reads and writes back the samples of `shape`.
fn round_trip<T: DeserializeOwned + Serialize>(snapshot: &Value, shape: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let full = sample(snapshot, shape, "full");
    match serde_json::from_value::<T>(full.clone()) {
        Err(error) => problems.push(format!("cannot read {}: {}", full, error)),
        Ok(value) => {
            let kept = serde_json::to_value(&value).expect("the type writes JSON");
            let (mut lost, mut added) = (Vec::new(), Vec::new());
            diff(full, &kept, "", &mut lost, &mut added);
            for key in lost.into_iter().filter(|key| !KNOWN_MISSING.contains(&(shape, key.as_str()))) {
                problems.push(format!("loses {} (a field it lacks or names differently)", key));
            }
            for key in added {
                if !KNOWN_EXTRA.contains(&(shape, key.as_str())) {
                    problems.push(format!("has {}, which the API does not send", key));
                }
            }
        }
    }
    let minimal = sample(snapshot, shape, "minimal");
    if let Err(error) = serde_json::from_value::<T>(minimal.clone()) {
        problems.push(format!("cannot read the required fields alone {}: {}", minimal, error));
    }
    problems
}

macro_rules! check {
    ($snapshot:expr, $problems:expr, $($ty:ty => $shape:expr),+ $(,)?) => {
        $(
            for problem in round_trip::<$ty>($snapshot, $shape) {
                $problems.push(format!("{} ({}): {}", stringify!($ty), $shape, problem));
            }
        )+
    };
}

#[test]
fn contract_answers_match_the_openapi_document() {
    let snapshot = match snapshot() {
        Some(snapshot) => snapshot,
        None => return,
    };
    let mut problems: Vec<String> = Vec::new();
    // Each answer type and the schema it stands for; nested types are checked inside their parents' samples.
    // Not here: MessagePage (made by the crate from a SessionWithMessages).
    check!(&snapshot, problems,
        User => "User",
        MeUser => "MeUser",
        kasa::AuthResponse => "AuthResponse",
        Persona => "Persona",
        Session => "Session",
        SessionPage => "SessionPage",
        StoredMessage => "StoredMessage",
        MessageVersion => "MessageVersion",
        kasa::AssistantReply => "AssistantReply",
        SessionWithMessages => "SessionWithMessages",
        ConversationShare => "ConversationShare",
        SharedConversation => "SharedConversation",
        ModelList => "GET /v1/models 200",
        LanguageList => "LanguageList",
        DetectedLanguage => "DetectLanguageResponse",
        Voice => "Voice",
        Synthesis => "SynthesizeResponse",
        GeoLookup => "GeoLookupResponse",
        CreatedApiKey => "CreateApiKeyResponse",
        // The status service's answers, without their {"data": ...} envelope.
        kasa::AnalyticsSummary => "AnalyticsResponse.data",
        kasa::Usage => "UsageResponse.data",
        kasa::AnalyticsSession => "AnalyticsSession",
        VideoJob => "VideoJob",
        VideoJobList => "VideoJobList",
        kasa::Attachment => "Attachment",
        kasa::ChatCompletion => "OpenAIChatCompletion",
        kasa::ChatCompletionChunk => "OpenAIChatCompletionChunk",
        // Request parts the caller fills in (DetectHints, write-only, is with the request bodies).
        ChatMessage => "OpenAIChatCompletionRequest.messages[]",
        Tool => "OpenAIFunctionTool",
    );
    assert!(problems.is_empty(), "the types drifted from the document:\n{}", problems.join("\n"));
}

fn enum_values(snapshot: &Value, name: &str) -> BTreeSet<String> {
    let values = match snapshot["enums"].get(name) {
        Some(values) => values,
        None => {
            let (shape, key) = name.split_once('.').expect("Shape.key");
            &snapshot["shapes"][shape]["properties"][key]["enum"]
        }
    };
    values.as_array().expect("an enum").iter().filter_map(|v| v.as_str().map(String::from)).collect()
}

fn set(values: &[&str]) -> BTreeSet<String> {
    values.iter().map(|v| v.to_string()).collect()
}

#[test]
fn contract_enums_know_every_value_of_the_api() {
    let snapshot = match snapshot() {
        Some(snapshot) => snapshot,
        None => return,
    };
    let scopes: Vec<String> = [Scope::Chat, Scope::Voice, Scope::Analytics]
        .iter()
        .map(|scope| serde_json::to_value(scope).unwrap().as_str().unwrap().to_string())
        .collect();
    assert_eq!(scopes.into_iter().collect::<BTreeSet<_>>(), enum_values(&snapshot, "ApiKeyScope"));
    assert_eq!(
        set(&[kasa::STATUS_STREAMING, kasa::STATUS_COMPLETE, kasa::STATUS_STOPPED, kasa::STATUS_FAILED]),
        enum_values(&snapshot, "StoredMessage.status")
    );
    assert_eq!(set(&[kasa::ATTACHMENT_IMAGE, kasa::ATTACHMENT_DOCUMENT]), enum_values(&snapshot, "AttachmentKind"));
    assert_eq!(
        set(&[kasa::VIDEO_QUEUED, kasa::VIDEO_RUNNING, kasa::VIDEO_SUCCEEDED, kasa::VIDEO_FAILED]),
        enum_values(&snapshot, "VideoJob.status")
    );
    // The capabilities a catalogue filter takes are the flags of a language's capabilities.
    let capabilities =
        [Capability::Detect, Capability::Chat, Capability::Speak, Capability::Listen, Capability::Translate];
    let flags: BTreeSet<String> =
        snapshot["shapes"]["LanguageCapabilities"]["properties"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(capabilities.iter().map(|c| c.as_str().to_string()).collect::<BTreeSet<_>>(), flags);
}

fn body_keys(body: &impl Serialize) -> BTreeSet<String> {
    match serde_json::to_value(body).expect("the body is JSON") {
        Value::Object(object) => object.keys().cloned().collect(),
        other => panic!("{} is not a JSON object", other),
    }
}

#[test]
fn contract_request_bodies_are_ones_the_api_accepts() {
    let snapshot = match snapshot() {
        Some(snapshot) => snapshot,
        None => return,
    };
    // Each body with every option set (all the keys the crate can send) and with none (what it always sends).
    let cases: Vec<(&str, BTreeSet<String>, BTreeSet<String>)> = vec![
        (
            "RegisterRequest",
            body_keys(&RegisterParams {
                username: "ama".into(),
                email: "ama@example.com".into(),
                password: "secret1".into(),
            }),
            body_keys(&RegisterParams::default()),
        ),
        (
            "LoginRequest",
            body_keys(&LoginParams { email: "ama@example.com".into(), password: "secret1".into() }),
            body_keys(&LoginParams::default()),
        ),
        (
            "CreateApiKeyRequest",
            body_keys(&ApiKeyCreateParams {
                name: "ci".into(),
                scopes: vec![Scope::Chat],
                expires_in_days: Some(30),
                team: true,
                idempotency_key: Some("k".into()),
            }),
            body_keys(&ApiKeyCreateParams::default()),
        ),
        (
            "CreateSessionRequest",
            body_keys(&SessionCreateParams {
                persona_id: "kasa".into(),
                title: "Hi".into(),
                idempotency_key: Some("k".into()),
            }),
            body_keys(&SessionCreateParams::default()),
        ),
        (
            "SynthesizeRequest",
            body_keys(&SynthesizeParams {
                text: "Hello".into(),
                voice: Some("en-US-1".into()),
                language: Some("en".into()),
                idempotency_key: Some("k".into()),
            }),
            body_keys(&SynthesizeParams::default()),
        ),
        (
            "VideoGenerationRequest",
            body_keys(&VideoParams {
                prompt: "A sunrise".into(),
                language: "en".into(),
                voice: Some("en-US-1".into()),
                idempotency_key: Some("k".into()),
            }),
            body_keys(&VideoParams::default()),
        ),
        (
            "DetectLanguageRequest.hints",
            body_keys(&DetectHints {
                user_language: Some("fr".into()),
                browser_locale: Some("fr-CI".into()),
                recent: vec!["Bonjour".into()],
            }),
            body_keys(&DetectHints::default()),
        ),
    ];
    let problems = body_problems(&snapshot, cases);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What is wrong with each (schema, body with every option set, body with none): a key the API does not accept, or
/// one it requires that may be left out.
fn body_problems(snapshot: &Value, cases: Vec<(&str, BTreeSet<String>, BTreeSet<String>)>) -> Vec<String> {
    let mut problems = Vec::new();
    for (shape, fullest, least) in cases {
        let properties: &Map<String, Value> = snapshot["shapes"][shape]["properties"].as_object().expect(shape);
        for key in fullest.iter().filter(|key| !properties.contains_key(*key)) {
            problems.push(format!("{}: sends {}, which the API does not accept", shape, key));
        }
        for (key, property) in properties {
            if property["required"] == Value::Bool(true) && !least.contains(key) {
                problems.push(format!("{}: may leave out {}, which the API requires", shape, key));
            }
        }
    }
    problems
}

#[tokio::test]
async fn contract_message_bodies_are_ones_the_api_accepts() {
    let snapshot = match snapshot() {
        Some(snapshot) => snapshot,
        None => return,
    };
    // The message calls build their bodies as they send them: a fake server reads them (and refuses each call).
    let server = Server::start(|_, _| Reply::error(400, "validation_failed", "Invalid input", &[])).await;
    let client = server.client().max_retries(0).build().unwrap();
    let messages = client.messages();
    let fullest = MessageParams {
        content: "Hi".into(),
        kind: Some("text".into()),
        language: Some("en".into()),
        resumable: true,
        attachment_ids: Some(vec!["a".repeat(22)]),
        idempotency_key: Some("k".into()),
    };
    let least = MessageParams::default();
    let regenerate =
        RegenerateParams { language: Some("en".into()), resumable: true, idempotency_key: Some("k".into()) };
    let (session, message) = ("0123456789abcdef01234567", "89abcdef0123456789abcdef");
    // Every option is sent by the streamed calls (`resumable` is for streams only), none by the whole ones.
    let _ = messages.stream(session, &fullest).await;
    let _ = messages.send(session, &least).await;
    let _ = messages.edit_stream(session, message, &fullest).await;
    let _ = messages.edit(session, message, &least).await;
    let _ = messages.regenerate_stream(session, message, &regenerate).await;
    let _ = messages.regenerate(session, message, &RegenerateParams::default()).await;
    let keys: Vec<BTreeSet<String>> = server.requests().iter().map(|request| body_keys(&request.json())).collect();
    assert_eq!(keys.len(), 6);
    let cases = vec![
        ("CreateMessageRequest", keys[0].clone(), keys[1].clone()),
        ("EditMessageRequest", keys[2].clone(), keys[3].clone()),
        ("RegenerateRequest", keys[4].clone(), keys[5].clone()),
    ];
    // Each option of the fullest bodies was sent, so that none goes unchecked.
    assert_eq!(keys[0].len(), 6, "{:?}", keys[0]);
    assert_eq!(keys[2], keys[0]);
    assert_eq!(keys[4].len(), 2, "{:?}", keys[4]);
    let problems = body_problems(&snapshot, cases);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn contract_completion_bodies_are_ones_the_api_accepts() {
    let snapshot = match snapshot() {
        Some(snapshot) => snapshot,
        None => return,
    };
    // A fake server reads the bodies as the client sends them (and refuses each call).
    let server = Server::start(|_, _| Reply::error(400, "validation_failed", "Invalid input", &[])).await;
    let client = server.client().max_retries(0).build().unwrap();
    let weather = Tool::function("get_weather", "The weather in a city", serde_json::json!({ "type": "object" }));
    let fullest = CompletionParams {
        temperature: Some(0.5),
        max_tokens: Some(10),
        user: Some("u1".into()),
        include_usage: true,
        tools: vec![weather],
        tool_choice: Some(ToolChoice::Function("get_weather".into())),
        parallel_tool_calls: Some(false),
        response_format: Some(ResponseFormat::JsonObject),
        idempotency_key: Some("k".into()),
        ..CompletionParams::new("kasa", vec![ChatMessage::user("Hi")])
    };
    let _ = client.completions().stream(&fullest).await;
    let _ = client.completions().create(&CompletionParams::default()).await;
    let requests = server.requests();
    let keys: Vec<BTreeSet<String>> = requests.iter().map(|request| body_keys(&request.json())).collect();
    assert_eq!(keys.len(), 2);
    // Each option of the fullest body was sent, so that none goes unchecked, in the shape the API reads.
    assert_eq!(keys[0].len(), 11, "{:?}", keys[0]);
    let body = requests[0].json();
    assert_eq!(body["tool_choice"], serde_json::json!({ "type": "function", "function": { "name": "get_weather" } }));
    assert_eq!(body["response_format"], serde_json::json!({ "type": "json_object" }));
    assert_eq!(body["tools"][0]["type"], "function");
    let problems = body_problems(&snapshot, vec![("OpenAIChatCompletionRequest", keys[0].clone(), keys[1].clone())]);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn contract_check_finds_a_drift() {
    let snapshot = match snapshot() {
        Some(snapshot) => snapshot,
        None => return,
    };
    #[derive(serde::Deserialize, Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Drifted {
        id: String,
        progres: Option<u8>,
        voice: String,
        #[serde(default)]
        status: String,
        renderer: Option<String>,
        created_at: Option<String>,
        updated_at: Option<String>,
    }
    let problems = round_trip::<Drifted>(&snapshot, "VideoJob").join("\n");
    assert!(problems.contains("loses progress"), "{}", problems);
    assert!(problems.contains("has progres"), "{}", problems);
    assert!(problems.contains("cannot read the required fields alone"), "{}", problems);
}
