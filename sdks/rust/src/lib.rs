//! The Rust SDK of Kasa: an async (tokio) client of the Kasa API.
//!
//! Accounts, personas, chat sessions and messages, replies streamed token by token (stopped, or followed again
//! after a dropped connection), versions of messages (a message edited, an answer regenerated, another version shown
//! again), read-only links to conversations, the OpenAI-compatible chat completions (whole or streamed) and models,
//! speech, videos, the language catalogue and detection, geo lookup, API keys and usage analytics.
//!
//! ```no_run
//! use kasa::{Client, MessageParams, ReplyEvent, SessionCreateParams};
//!
//! # async fn run() -> kasa::Result<()> {
//! let client = Client::builder().api_key("ksk_…").base_url("https://kasa.example").build()?;
//! let session = client.sessions().create(&SessionCreateParams::new("nana", "Weekend in Kumasi")).await?;
//! let mut stream = client.messages().stream(&session.id, &MessageParams::new("What should I see at Kejetia?")).await?;
//! while let Some(event) = stream.next().await? {
//!     if let ReplyEvent::Token(token) = event {
//!         print!("{}", token.text);
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Every failure is an [`Error`] with an [`ErrorKind`]; calls that are safe to repeat are retried with back-off
//! ([`RetryPolicy`]), creating calls carry an `Idempotency-Key`, and each wait is bounded by the client's timeout.

#![forbid(unsafe_code)]
#![warn(missing_debug_implementations, rust_2018_idioms)]

mod client;
mod error;
mod resources;
mod retry;
mod sse;
mod stream;
mod types;

pub use client::{
    new_idempotency_key, Client, ClientBuilder, DEFAULT_BASE_URL, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT,
};
pub use error::{
    Error, ErrorKind, FieldError, Result, CODE_INVALID_CONFIG, CODE_INVALID_RESPONSE, CODE_NETWORK_ERROR,
    CODE_QUOTA_EXCEEDED, CODE_STREAM_ERROR, CODE_TIMEOUT, CODE_UPSTREAM_UNAVAILABLE, CODE_VIDEO_NOT_READY,
    CODE_WAIT_TIMEOUT,
};
pub use resources::{
    Analytics, ApiKeyCreateParams, ApiKeys, AttachmentUploadParams, Attachments, Auth, CompletionParams, Completions,
    Geo, Languages, LoginParams, MessageParams, Messages, Personas, ProgressCallback, RegenerateParams, RegisterParams,
    SessionCreateParams, Sessions, Speech, SynthesizeParams, Video, VideoParams, WaitOptions, DEFAULT_WAIT_INTERVAL,
    DEFAULT_WAIT_TIMEOUT,
};
pub use retry::{parse_retry_after, RetryPolicy};
pub use sse::{EventTooLarge, ServerSentEvent, SseDecoder, DEFAULT_MAX_EVENT_BYTES};
pub use stream::{
    CompletionStream, MetaEvent, ReplyEvent, ReplyStream, StopHandle, TokenEvent, VideoEvent, VideoEventStream,
    VideoJobEvent,
};
pub use types::*;

/// The version of this SDK; the client sends it in its User-Agent (`kasa-rust/0.14.0`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
