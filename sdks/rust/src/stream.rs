//! Streamed answers: a chat reply as it is written ([`ReplyStream`]), an OpenAI-compatible completion
//! ([`CompletionStream`]) and a video job's events ([`VideoEventStream`]).

use std::collections::VecDeque;
use std::fmt;

use futures_util::stream::{self, Stream};
use reqwest::Response;
use serde::Deserialize;
use tokio::sync::watch;

use crate::client::{request_id_of, within, Client};
use crate::error::{Error, ErrorKind, Result};
use crate::sse::{ServerSentEvent, SseDecoder};
use crate::types::{AssistantReply, ChatCompletionChunk, StoredMessage, VideoJob};

/// A provider starts answering (again, with `continued` true, when another one took over mid-reply).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetaEvent {
    pub user_message_id: String,
    /// The id of the reply being written: what [`Messages::stop`](crate::Messages::stop) and
    /// [`Messages::resume`](crate::Messages::resume) take.
    pub assistant_message_id: String,
    pub provider: String,
    pub model: String,
    pub continued: bool,
}

/// The next piece of the reply's text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct TokenEvent {
    pub text: String,
}

/// An event of a streamed reply: its [`Meta`](ReplyEvent::Meta), each [`Token`](ReplyEvent::Token) in order, then
/// [`Done`](ReplyEvent::Done) with the reply as stored (status `complete`, or `stopped` when it was stopped).
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyEvent {
    Meta(MetaEvent),
    Token(TokenEvent),
    Done(AssistantReply),
}

/// The connection of a stream and the events read from it.
struct EventBody {
    response: Response,
    client: Client,
    decoder: SseDecoder,
    queue: VecDeque<ServerSentEvent>,
    request_id: Option<String>,
    eof: bool,
}

impl EventBody {
    fn new(client: &Client, response: Response) -> EventBody {
        EventBody {
            request_id: request_id_of(response.headers()),
            decoder: SseDecoder::new(client.config.max_event_bytes),
            response,
            client: client.clone(),
            queue: VecDeque::new(),
            eof: false,
        }
    }

    fn broken(&self, message: impl Into<String>) -> Error {
        Error::connection(ErrorKind::Stream, message).with_request_id(self.request_id.clone())
    }

    /// The next event; a stream error when the connection closes first (the caller stops reading at its closing
    /// event), a timeout error when nothing arrives within the client's timeout.
    async fn next(&mut self) -> Result<ServerSentEvent> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Ok(event);
            }
            if self.eof {
                return Err(self.broken("The connection closed before the stream was complete."));
            }
            let config = &self.client.config;
            let piece = within(config.timeout, &config.base_url, self.response.chunk())
                .await
                .map_err(|e| e.with_request_id(self.request_id.clone()))?;
            match piece {
                Ok(Some(bytes)) => match self.decoder.push(&bytes) {
                    Ok(events) => self.queue.extend(events),
                    Err(too_large) => {
                        self.eof = true;
                        return Err(self.broken(format!("The stream broke off: {too_large}.")).with_source(too_large));
                    }
                },
                Ok(None) => self.eof = true,
                Err(e) => {
                    self.eof = true;
                    return Err(self.broken(format!("The stream broke off: {e}")).with_source(e));
                }
            }
        }
    }
}

fn decode_event<T: for<'de> Deserialize<'de>>(event: &ServerSentEvent, request_id: &Option<String>) -> Result<T> {
    serde_json::from_str(&event.data).map_err(|e| {
        Error::connection(
            ErrorKind::Stream,
            format!("The stream sent a {} event that is not valid JSON: {e}", event.event),
        )
        .with_source(e)
        .with_request_id(request_id.clone())
    })
}

/// A chat reply as it is written. Read it with [`next`](ReplyStream::next) until it gives `None`: a
/// [`ReplyEvent::Meta`], each [`ReplyEvent::Token`] in order, then [`ReplyEvent::Done`] with the stored reply.
/// An error ends it: a [`ErrorKind::Server`] 503 (`upstream_unavailable`) when no AI provider could finish, a
/// [`ErrorKind::Stream`] when the connection broke off, a [`ErrorKind::Timeout`] when it fell silent for longer
/// than the timeout.
///
/// Dropping the stream (or [`close`](ReplyStream::close)) hangs up: for a reply that is not resumable, that stops
/// it on the server.
///
/// ```no_run
/// # async fn run(client: kasa::Client, session_id: &str) -> kasa::Result<()> {
/// let mut stream = client.messages().stream(session_id, &kasa::MessageParams::new("Akwaaba!")).await?;
/// while let Some(event) = stream.next().await? {
///     match event {
///         kasa::ReplyEvent::Token(token) => print!("{}", token.text),
///         kasa::ReplyEvent::Done(reply) => println!("\nstored as {} ({})", reply.id, reply.status),
///         kasa::ReplyEvent::Meta(_) => {}
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub struct ReplyStream {
    body: EventBody,
    session_id: String,
    pending: VecDeque<ReplyEvent>,
    /// The closing event was read, or the stream failed.
    ended: bool,
    /// The reply's id once its meta event was read; dropped at the end, which wakes waiting stop handles.
    id: Option<watch::Sender<Option<String>>>,
    id_seen: watch::Receiver<Option<String>>,
}

impl fmt::Debug for ReplyStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReplyStream")
            .field("session_id", &self.session_id)
            .field("assistant_message_id", &self.assistant_message_id())
            .field("request_id", &self.body.request_id)
            .field("ended", &self.ended)
            .finish()
    }
}

impl ReplyStream {
    pub(crate) fn new(client: &Client, session_id: &str, response: Response) -> ReplyStream {
        let (sender, receiver) = watch::channel(None);
        ReplyStream {
            body: EventBody::new(client, response),
            session_id: session_id.to_string(),
            pending: VecDeque::new(),
            ended: false,
            id: Some(sender),
            id_seen: receiver,
        }
    }

    /// The id the API gave the request (`x-request-id`), to quote when asking for support.
    pub fn request_id(&self) -> Option<&str> {
        self.body.request_id.as_deref()
    }

    /// The id of the reply being written, once its first event has been read.
    pub fn assistant_message_id(&self) -> Option<String> {
        self.id_seen.borrow().clone()
    }

    /// The next event; `None` once the stream has ended with its `Done` event. After an error, `None` too.
    pub async fn next(&mut self) -> Result<Option<ReplyEvent>> {
        if let Some(event) = self.pending.pop_front() {
            return Ok(Some(event));
        }
        self.pull().await
    }

    /// Reads the next event from the connection.
    async fn pull(&mut self) -> Result<Option<ReplyEvent>> {
        while !self.ended {
            let raw = match self.body.next().await {
                Ok(raw) => raw,
                Err(e) => return Err(self.fail(e)),
            };
            let request_id = &self.body.request_id;
            let event = match raw.event.as_str() {
                "meta" => decode_event::<MetaEvent>(&raw, request_id).map(ReplyEvent::Meta),
                "token" => decode_event::<TokenEvent>(&raw, request_id).map(ReplyEvent::Token),
                "done" => decode_event::<AssistantReply>(&raw, request_id).map(ReplyEvent::Done),
                "error" => {
                    #[derive(Deserialize, Default)]
                    #[serde(default)]
                    struct Failure {
                        message: String,
                    }
                    let failure: Failure = serde_json::from_str(&raw.data).unwrap_or_default();
                    Err(Error::stream_failure(&failure.message, request_id.clone()))
                }
                // An event this version does not know: skipped.
                _ => continue,
            };
            let event = match event {
                Ok(event) => event,
                Err(e) => return Err(self.fail(e)),
            };
            match &event {
                ReplyEvent::Meta(meta) => {
                    if let Some(sender) = &self.id {
                        if sender.borrow().is_none() {
                            sender.send_replace(Some(meta.assistant_message_id.clone()));
                        }
                    }
                }
                ReplyEvent::Done(_) => self.finish(),
                ReplyEvent::Token(_) => {}
            }
            return Ok(Some(event));
        }
        Ok(None)
    }

    fn finish(&mut self) {
        self.ended = true;
        self.id = None;
    }

    fn fail(&mut self, error: Error) -> Error {
        self.finish();
        error
    }

    /// Asks the server to stop writing the reply (whichever connection is following it) and gives the reply as
    /// stored so far. Keep reading: the stream then ends with a `Done` event whose status is `stopped`. Called
    /// before the reply's first event, it reads ahead to the reply's id (the events read ahead are still given by
    /// [`next`](ReplyStream::next), in order).
    pub async fn stop(&mut self) -> Result<StoredMessage> {
        let id = match self.assistant_message_id() {
            Some(id) => id,
            None => loop {
                match self.pull().await? {
                    Some(event) => {
                        self.pending.push_back(event);
                        if let Some(id) = self.assistant_message_id() {
                            break id;
                        }
                    }
                    None => return Err(self.body.broken("The reply ended before it named its id.")),
                }
            },
        };
        self.body.client.messages().stop(&self.session_id, &id).await
    }

    /// A handle that stops the reply from another task while this one reads the stream.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle {
            client: self.body.client.clone(),
            session_id: self.session_id.clone(),
            id: self.id_seen.clone(),
            request_id: self.body.request_id.clone(),
        }
    }

    /// Reads the rest of the stream and gives the stored reply.
    pub async fn final_message(mut self) -> Result<AssistantReply> {
        while let Some(event) = self.next().await? {
            if let ReplyEvent::Done(reply) = event {
                return Ok(reply);
            }
        }
        Err(self.body.broken("The reply ended without a final message."))
    }

    /// Hangs up. For a reply that is not resumable, that stops it on the server (it is stored as stopped).
    /// Dropping the stream does the same.
    pub fn close(self) {}

    /// The events as a [`futures_util::Stream`]; it ends after the `Done` event or the first error.
    pub fn into_stream(self) -> impl Stream<Item = Result<ReplyEvent>> + Send {
        stream::unfold(Some(self), |state| async move {
            let mut stream = state?;
            match stream.next().await {
                Ok(Some(event)) => Some((Ok(event), Some(stream))),
                Ok(None) => None,
                Err(e) => Some((Err(e), None)),
            }
        })
    }
}

/// Stops a streamed reply from another task ([`ReplyStream::stop_handle`]). Clone it freely.
#[derive(Debug, Clone)]
pub struct StopHandle {
    client: Client,
    session_id: String,
    id: watch::Receiver<Option<String>>,
    request_id: Option<String>,
}

impl StopHandle {
    /// Asks the server to stop writing the reply and gives it as stored so far; the stream then ends with a
    /// `Done` event whose status is `stopped`. Before the reply's first event has been read, it waits for it
    /// (someone has to be reading the stream).
    pub async fn stop(&self) -> Result<StoredMessage> {
        let mut id = self.id.clone();
        let message_id = loop {
            if let Some(message_id) = id.borrow_and_update().clone() {
                break message_id;
            }
            if id.changed().await.is_err() {
                match id.borrow().clone() {
                    Some(message_id) => break message_id,
                    None => {
                        return Err(Error::connection(ErrorKind::Stream, "The reply ended before it named its id.")
                            .with_request_id(self.request_id.clone()))
                    }
                }
            }
        };
        self.client.messages().stop(&self.session_id, &message_id).await
    }
}

/// A streamed completion of the OpenAI-compatible API: read it with [`next`](CompletionStream::next) until it
/// gives `None`. Dropping it hangs up.
///
/// ```no_run
/// # async fn run(client: kasa::Client) -> kasa::Result<()> {
/// let params = kasa::CompletionParams::new("kasa", vec![kasa::ChatMessage::user("Hi")]);
/// let mut stream = client.completions().stream(&params).await?;
/// while let Some(chunk) = stream.next().await? {
///     if let Some(text) = chunk.choices.first().and_then(|c| c.delta.content.as_deref()) {
///         print!("{text}");
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub struct CompletionStream {
    body: EventBody,
    ended: bool,
}

impl fmt::Debug for CompletionStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompletionStream")
            .field("request_id", &self.body.request_id)
            .field("ended", &self.ended)
            .finish()
    }
}

impl CompletionStream {
    pub(crate) fn new(client: &Client, response: Response) -> CompletionStream {
        CompletionStream { body: EventBody::new(client, response), ended: false }
    }

    /// The id the API gave the request (`x-request-id`), to quote when asking for support.
    pub fn request_id(&self) -> Option<&str> {
        self.body.request_id.as_deref()
    }

    /// The next chunk; `None` once the stream has ended (`[DONE]`). An error when the completion failed
    /// mid-stream (a 503 [`ErrorKind::Server`]) or the connection broke off; after an error, `None`.
    pub async fn next(&mut self) -> Result<Option<ChatCompletionChunk>> {
        if self.ended {
            return Ok(None);
        }
        let result = self.read().await;
        if !matches!(result, Ok(Some(_))) {
            self.ended = true;
        }
        result
    }

    async fn read(&mut self) -> Result<Option<ChatCompletionChunk>> {
        let raw = self.body.next().await?;
        if raw.data == "[DONE]" {
            return Ok(None);
        }
        let value: serde_json::Value = decode_event(&raw, &self.body.request_id)?;
        if let Some(failure) = value.get("error").filter(|e| !e.is_null()) {
            let message = failure.get("message").and_then(|m| m.as_str()).unwrap_or("The completion failed.");
            return Err(Error::stream_failure(message, self.body.request_id.clone()));
        }
        serde_json::from_value(value).map(Some).map_err(|e| {
            self.body.broken(format!("The stream sent a chunk that is not a completion chunk: {e}")).with_source(e)
        })
    }

    /// Hangs up; dropping the stream does the same.
    pub fn close(self) {}

    /// The chunks as a [`futures_util::Stream`]; it ends after `[DONE]` or the first error.
    pub fn into_stream(self) -> impl Stream<Item = Result<ChatCompletionChunk>> + Send {
        stream::unfold(Some(self), |state| async move {
            let mut stream = state?;
            match stream.next().await {
                Ok(Some(chunk)) => Some((Ok(chunk), Some(stream))),
                Ok(None) => None,
                Err(e) => Some((Err(e), None)),
            }
        })
    }
}

/// A video job as its event stream sends it: the job, and while it is queued its place in the queue.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoJobEvent {
    #[serde(flatten)]
    pub job: VideoJob,
    /// While queued: how many queued jobs were created before this one (0: it is next).
    #[serde(default)]
    pub queue_position: Option<u32>,
}

/// An event of a video job's stream: [`Job`](VideoEvent::Job) at once and on each change while the job is queued
/// or running, then [`Done`](VideoEvent::Done) with the job once it has succeeded or failed.
#[derive(Debug, Clone, PartialEq)]
pub enum VideoEvent {
    Job(VideoJobEvent),
    Done(VideoJob),
}

impl VideoEvent {
    /// The job as the event gives it, whichever the event.
    pub fn job(&self) -> &VideoJob {
        match self {
            VideoEvent::Job(event) => &event.job,
            VideoEvent::Done(job) => job,
        }
    }
}

/// A video job's events as the server pushes them ([`Video::events`](crate::Video::events)): read it with
/// [`next`](VideoEventStream::next) until it gives `None`, which it does after [`VideoEvent::Done`]. An error ends
/// it: an [`ErrorKind::Stream`] when the stream ended before the job did (the job was deleted, or the connection
/// broke off), an [`ErrorKind::Timeout`] when it fell silent for longer than the timeout (the server pings every
/// 15 s). Dropping it hangs up.
///
/// ```no_run
/// # async fn run(client: kasa::Client, job_id: &str) -> kasa::Result<()> {
/// let mut events = client.video().events(job_id).await?;
/// while let Some(event) = events.next().await? {
///     println!("{} {}%", event.job().status, event.job().progress);
/// }
/// # Ok(())
/// # }
/// ```
pub struct VideoEventStream {
    body: EventBody,
    ended: bool,
}

impl fmt::Debug for VideoEventStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VideoEventStream")
            .field("request_id", &self.body.request_id)
            .field("ended", &self.ended)
            .finish()
    }
}

impl VideoEventStream {
    pub(crate) fn new(client: &Client, response: Response) -> VideoEventStream {
        VideoEventStream { body: EventBody::new(client, response), ended: false }
    }

    /// The id the API gave the request (`x-request-id`), to quote when asking for support.
    pub fn request_id(&self) -> Option<&str> {
        self.body.request_id.as_deref()
    }

    /// The next event; `None` once the stream has ended (after [`VideoEvent::Done`]) or after an error.
    pub async fn next(&mut self) -> Result<Option<VideoEvent>> {
        if self.ended {
            return Ok(None);
        }
        let result = self.read().await;
        if !matches!(result, Ok(Some(VideoEvent::Job(_)))) {
            self.ended = true;
        }
        result
    }

    async fn read(&mut self) -> Result<Option<VideoEvent>> {
        loop {
            let raw = self.body.next().await?;
            match raw.event.as_str() {
                "job" => return decode_event(&raw, &self.body.request_id).map(|job| Some(VideoEvent::Job(job))),
                "done" => return decode_event(&raw, &self.body.request_id).map(|job| Some(VideoEvent::Done(job))),
                "error" => {
                    #[derive(Deserialize)]
                    struct Failure {
                        message: Option<String>,
                    }
                    let failure: Failure = decode_event(&raw, &self.body.request_id)?;
                    let message = failure.message.filter(|m| !m.trim().is_empty());
                    return Err(self.body.broken(
                        message.unwrap_or_else(|| "The video job's events stopped before the job ended.".into()),
                    ));
                }
                // Another kind of event: not one this stream knows; keep reading.
                _ => continue,
            }
        }
    }

    /// Hangs up; dropping the stream does the same.
    pub fn close(self) {}

    /// The events as a [`futures_util::Stream`]; it ends after [`VideoEvent::Done`] or the first error.
    pub fn into_stream(self) -> impl Stream<Item = Result<VideoEvent>> + Send {
        stream::unfold(Some(self), |state| async move {
            let mut stream = state?;
            match stream.next().await {
                Ok(Some(event)) => Some((Ok(event), Some(stream))),
                Ok(None) => None,
                Err(e) => Some((Err(e), None)),
            }
        })
    }
}
