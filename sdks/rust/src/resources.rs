//! The API's resources, each a borrowed view of the [`Client`] (`client.sessions()`, `client.messages()`, ...).

use std::time::Duration;

use reqwest::Method;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::client::{decode, escape, Call, Client, Whole};
use crate::error::{Error, Result};
use crate::stream::{CompletionStream, ReplyStream, VideoEventStream};
use crate::types::*;

/// The audio the client takes, in the server's order of preference: the format is the server's setting (MP3 by
/// default), not the caller's.
const ACCEPT_AUDIO: &str = "audio/mpeg, audio/ogg, audio/wav";

fn session_path(session_id: &str) -> String {
    format!("/api/chat/sessions/{}", escape(session_id))
}

fn message_path(session_id: &str, message_id: &str) -> String {
    format!("{}/messages/{}", session_path(session_id), escape(message_id))
}

/// The `{"data": ...}` wrapper of the analytics answers.
#[derive(Deserialize)]
struct Data<T> {
    data: T,
}

/// The media type of an answer, without its parameters.
fn media_type(answer: &Whole) -> String {
    answer
        .headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "application/octet-stream".to_string())
}

// Accounts.

/// The details of a new account.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RegisterParams {
    pub username: String,
    pub email: String,
    /// At least 6 characters.
    pub password: String,
}

/// An account's e-mail address and password.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LoginParams {
    pub email: String,
    pub password: String,
}

/// Signs up, in and out, and says who is signed in. Signing up or in makes the client send the new access token
/// (it wins over an API key); account calls need that token: API keys are refused on them.
#[derive(Debug, Clone, Copy)]
pub struct Auth<'a> {
    pub(crate) client: &'a Client,
}

impl Auth<'_> {
    /// Creates an account (`POST /api/auth/register`); later calls send its token. A taken e-mail address is a
    /// [`Conflict`](crate::ErrorKind::Conflict), a wrong field a [`BadRequest`](crate::ErrorKind::BadRequest)
    /// naming it.
    pub async fn register(&self, params: &RegisterParams) -> Result<AuthResponse> {
        let call = Call::post("/api/auth/register").json(params).creates(None);
        let answer: AuthResponse = self.client.call(call).await?;
        self.client.set_token(Some(answer.token.clone()));
        Ok(answer)
    }

    /// Signs in (`POST /api/auth/login`); later calls send the token. A wrong password is an
    /// [`Authentication`](crate::ErrorKind::Authentication) error.
    pub async fn login(&self, params: &LoginParams) -> Result<AuthResponse> {
        // Signing in twice only issues a second token: safe to retry.
        let call = Call::post("/api/auth/login").json(params).idempotent();
        let answer: AuthResponse = self.client.call(call).await?;
        self.client.set_token(Some(answer.token.clone()));
        Ok(answer)
    }

    /// The signed-in user and whether they are an operator (`GET /api/auth/me`); it needs an access token.
    pub async fn me(&self) -> Result<MeUser> {
        #[derive(Deserialize)]
        struct Me {
            user: MeUser,
        }
        let me: Me = self.client.call(Call::get("/api/auth/me")).await?;
        Ok(me.user)
    }

    /// Revokes the token on the server (`POST /api/auth/logout`); the client forgets it whatever the answer, and
    /// goes back to its API key, if any.
    pub async fn logout(&self) -> Result<()> {
        // Revoking a token twice is the same as once.
        let result = self.client.call_empty(Call::post("/api/auth/logout").idempotent()).await;
        self.client.set_token(None);
        result
    }
}

// Personas.

/// The personas to chat with.
#[derive(Debug, Clone, Copy)]
pub struct Personas<'a> {
    pub(crate) client: &'a Client,
}

impl Personas<'_> {
    /// Kasa's six personas (kasa, merla, ticha, massa, nana, dokta), then the caller's own custom ones
    /// (`GET /api/personas`).
    pub async fn list(&self) -> Result<Vec<Persona>> {
        self.client.call(Call::get("/api/personas")).await
    }
}

// Sessions.

/// A new session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionCreateParams {
    /// The persona to chat with (`"kasa"`, `"nana"`, ...); an unknown one is a bad request.
    pub persona_id: String,
    pub title: String,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl SessionCreateParams {
    /// A session with `persona_id`, titled `title`.
    pub fn new(persona_id: impl Into<String>, title: impl Into<String>) -> Self {
        SessionCreateParams { persona_id: persona_id.into(), title: title.into(), idempotency_key: None }
    }
}

/// Chat sessions (conversations with one persona), and their read-only links. Only their owner sees them: anyone
/// else gets a [`NotFound`](crate::ErrorKind::NotFound).
#[derive(Debug, Clone, Copy)]
pub struct Sessions<'a> {
    pub(crate) client: &'a Client,
}

impl Sessions<'_> {
    /// Starts a session (`POST /api/chat/sessions`).
    pub async fn create(&self, params: &SessionCreateParams) -> Result<Session> {
        let call = Call::post("/api/chat/sessions").json(params).creates(params.idempotency_key.clone());
        self.client.call(call).await
    }

    /// One page of the caller's sessions, newest first (`GET /api/chat/sessions`).
    pub async fn list(&self, page: PageParams) -> Result<SessionPage> {
        self.client.call(Call::get("/api/chat/sessions").query(page.query())).await
    }

    /// A session and a page of its messages, the newest page first (`GET /api/chat/sessions/:id`).
    pub async fn get(&self, session_id: &str, page: PageParams) -> Result<SessionWithMessages> {
        self.client.call(Call::get(session_path(session_id)).query(page.query())).await
    }

    /// Sets a session's title (`PATCH /api/chat/sessions/:id`).
    pub async fn rename(&self, session_id: &str, title: &str) -> Result<Session> {
        // Setting the same title twice is the same as once.
        let call = Call::new(Method::PATCH, session_path(session_id)).json(&serde_json::json!({ "title": title }));
        self.client.call(call.idempotent()).await
    }

    /// Removes a session and its messages (`DELETE /api/chat/sessions/:id`).
    pub async fn delete(&self, session_id: &str) -> Result<()> {
        self.client.call_empty(Call::new(Method::DELETE, session_path(session_id))).await
    }

    /// Makes a read-only link to the conversation as it is now (`POST /api/chat/sessions/:id/share`): `path`
    /// (`/share/<token>`) opens on the site's origin. Sharing again keeps the link and brings it up to date; a
    /// conversation without messages is a [`BadRequest`](crate::ErrorKind::BadRequest), someone else's a
    /// [`NotFound`](crate::ErrorKind::NotFound).
    pub async fn share(&self, session_id: &str) -> Result<ConversationShare> {
        // Sharing again keeps the link and only brings it up to date: safe to repeat.
        self.client.call(Call::post(format!("{}/share", session_path(session_id))).idempotent()).await
    }

    /// The conversation's link (`GET /api/chat/sessions/:id/share`); a [`NotFound`](crate::ErrorKind::NotFound)
    /// when it is not shared.
    pub async fn get_share(&self, session_id: &str) -> Result<ConversationShare> {
        self.client.call(Call::get(format!("{}/share", session_path(session_id)))).await
    }

    /// Makes the conversation's link answer 404 from now on (`DELETE /api/chat/sessions/:id/share`); stopping a
    /// conversation that is not shared is not an error.
    pub async fn stop_sharing(&self, session_id: &str) -> Result<()> {
        self.client.call_empty(Call::new(Method::DELETE, format!("{}/share", session_path(session_id)))).await
    }

    /// A conversation someone shared (`GET /api/chat/shared/:token`), read without an account: the client sends no
    /// credential for it. Once its owner stops sharing it, or for a token never shared, it is a
    /// [`NotFound`](crate::ErrorKind::NotFound).
    pub async fn read_shared(&self, token: &str) -> Result<SharedConversation> {
        // The token is the only secret the page needs.
        self.client.call(Call::get(format!("/api/chat/shared/{}", escape(token))).anonymous()).await
    }
}

// Messages.

/// A user message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageParams {
    /// The message's text (required, up to 16,000 characters).
    pub content: String,
    /// `"text"` (the default), `"voice"` or `"image"`.
    pub kind: Option<String>,
    /// The user's language as a BCP 47 tag (`"tw"`, `"fr-CI"`), or `"auto"` (the default: detected).
    pub language: Option<String>,
    /// (Streams only) keeps the reply being written when the connection drops:
    /// [`Messages::resume`] follows it again, and only a stop stops it. Otherwise hanging up is the stop.
    pub resumable: bool,
    /// Up to 4 ids of images and documents from [`Attachments::upload`] (Pro and Enterprise), none sent in another
    /// session (a [`Conflict`](crate::ErrorKind::Conflict) otherwise). `None` sends none; on an
    /// [`edit`](Messages::edit), `None` keeps the edited message's attachments and an empty list drops them.
    pub attachment_ids: Option<Vec<String>>,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    pub idempotency_key: Option<String>,
}

impl MessageParams {
    /// A text message.
    pub fn new(content: impl Into<String>) -> Self {
        MessageParams { content: content.into(), ..MessageParams::default() }
    }

    /// The same message in `language` (a BCP 47 tag, or `"auto"`).
    pub fn language(mut self, language: impl Into<String>) -> Self {
        self.language = Some(language.into());
        self
    }

    /// The same message with these attachments (ids from [`Attachments::upload`]).
    pub fn attachments<I, S>(mut self, ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.attachment_ids = Some(ids.into_iter().map(Into::into).collect());
        self
    }

    /// The same message, its reply resumable (streams only).
    pub fn resumable(mut self) -> Self {
        self.resumable = true;
        self
    }

    /// The POST to `path` (a new message's, or an edit's) that sends this message.
    fn call(&self, path: String, stream: bool) -> Call {
        let mut body = Map::new();
        body.insert("role".into(), "user".into());
        body.insert("content".into(), self.content.clone().into());
        if let Some(kind) = &self.kind {
            body.insert("type".into(), kind.clone().into());
        }
        if let Some(language) = &self.language {
            body.insert("language".into(), language.clone().into());
        }
        if stream && self.resumable {
            body.insert("resumable".into(), true.into());
        }
        if let Some(ids) = &self.attachment_ids {
            body.insert("attachmentIds".into(), ids.clone().into());
        }
        let call = Call::post(path).json(&body).creates(self.idempotency_key.clone());
        if stream {
            call.accept("text/event-stream")
        } else {
            call
        }
    }
}

/// A new version of an answer (all optional): the answer to the same question, written again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegenerateParams {
    /// The reply's language as a BCP 47 tag (`"tw"`, `"fr-CI"`), or `"auto"`; `None`: the question's own.
    pub language: Option<String>,
    /// (Streams only) keeps the reply being written when the connection drops, as a [`MessageParams`]'s does:
    /// [`Messages::resume`] follows it again, and only a stop stops it. Otherwise hanging up is the stop.
    pub resumable: bool,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    pub idempotency_key: Option<String>,
}

impl RegenerateParams {
    /// An answer written again in the question's language.
    pub fn new() -> Self {
        RegenerateParams::default()
    }

    /// The same, the reply in `language` (a BCP 47 tag, or `"auto"`).
    pub fn language(mut self, language: impl Into<String>) -> Self {
        self.language = Some(language.into());
        self
    }

    /// The same, the reply resumable (streams only).
    pub fn resumable(mut self) -> Self {
        self.resumable = true;
        self
    }

    fn call(&self, session_id: &str, message_id: &str, stream: bool) -> Call {
        let mut body = Map::new();
        if let Some(language) = &self.language {
            body.insert("language".into(), language.clone().into());
        }
        if stream && self.resumable {
            body.insert("resumable".into(), true.into());
        }
        let call = Call::post(format!("{}/regenerate", message_path(session_id, message_id)))
            .json(&body)
            .creates(self.idempotency_key.clone());
        if stream {
            call.accept("text/event-stream")
        } else {
            call
        }
    }
}

/// The messages of a session: list, send (whole or streamed), follow again, stop, and their versions: edit a
/// message, regenerate an answer, show another version.
#[derive(Debug, Clone, Copy)]
pub struct Messages<'a> {
    pub(crate) client: &'a Client,
}

impl Messages<'_> {
    /// One page of a session's messages, the newest page first, oldest first within it
    /// (`GET /api/chat/sessions/:id`).
    pub async fn list(&self, session_id: &str, page: PageParams) -> Result<MessagePage> {
        self.client.call(Call::get(session_path(session_id)).query(page.query())).await
    }

    /// Sends a message and gives the stored reply once it is complete (`POST /api/chat/sessions/:id/messages`).
    pub async fn send(&self, session_id: &str, params: &MessageParams) -> Result<AssistantReply> {
        self.client.call(params.call(format!("{}/messages", session_path(session_id)), false)).await
    }

    /// Sends a message and gives its reply as it is written (`POST /api/chat/sessions/:id/messages` with `Accept:
    /// text/event-stream`). It returns once the reply has started: a 400, 401, 403, 404 or 429 is returned here.
    pub async fn stream(&self, session_id: &str, params: &MessageParams) -> Result<ReplyStream> {
        let response = self.client.open(params.call(format!("{}/messages", session_path(session_id)), true)).await?;
        Ok(ReplyStream::new(self.client, session_id, response))
    }

    /// Follows a reply being written, after a dropped connection or from another process
    /// (`GET /api/chat/sessions/:id/messages/:messageId/stream`): its meta event, the text so far as one token,
    /// then the rest as it is written, then the done event.
    pub async fn resume(&self, session_id: &str, message_id: &str) -> Result<ReplyStream> {
        let call = Call::get(format!("{}/stream", message_path(session_id, message_id))).accept("text/event-stream");
        let response = self.client.open(call).await?;
        Ok(ReplyStream::new(self.client, session_id, response))
    }

    /// Edits one of the caller's messages and gives the reply to its new text once it is complete
    /// (`POST /api/chat/sessions/:id/messages/:messageId/edit`). The new text is a new version of that message, in
    /// its place: the conversation's branch now goes through it (the old version and what followed it are kept;
    /// [`select_version`](Messages::select_version) shows them again). Editing an answer is a
    /// [`BadRequest`](crate::ErrorKind::BadRequest).
    pub async fn edit(&self, session_id: &str, message_id: &str, params: &MessageParams) -> Result<AssistantReply> {
        self.client.call(params.call(format!("{}/edit", message_path(session_id, message_id)), false)).await
    }

    /// Edits one of the caller's messages, as [`edit`](Messages::edit) does, and gives the reply to its new text as
    /// it is written (`POST /api/chat/sessions/:id/messages/:messageId/edit` with `Accept: text/event-stream`). It
    /// returns once the reply has started: a 400, 401, 403, 404 or 429 is returned here.
    pub async fn edit_stream(&self, session_id: &str, message_id: &str, params: &MessageParams) -> Result<ReplyStream> {
        let call = params.call(format!("{}/edit", message_path(session_id, message_id)), true);
        let response = self.client.open(call).await?;
        Ok(ReplyStream::new(self.client, session_id, response))
    }

    /// Writes an answer again and gives the new one once it is complete, with its `version` (`index` 2, `count` 3)
    /// (`POST /api/chat/sessions/:id/messages/:messageId/regenerate`, `message_id` the answer's). The earlier
    /// answers are kept as its versions. Regenerating one of the caller's messages is a
    /// [`BadRequest`](crate::ErrorKind::BadRequest).
    pub async fn regenerate(
        &self,
        session_id: &str,
        message_id: &str,
        params: &RegenerateParams,
    ) -> Result<AssistantReply> {
        self.client.call(params.call(session_id, message_id, false)).await
    }

    /// Writes an answer again, as [`regenerate`](Messages::regenerate) does, and gives the new one as it is written
    /// (`POST /api/chat/sessions/:id/messages/:messageId/regenerate` with `Accept: text/event-stream`). It returns
    /// once the reply has started: a 400, 401, 403, 404 or 429 is returned here.
    pub async fn regenerate_stream(
        &self,
        session_id: &str,
        message_id: &str,
        params: &RegenerateParams,
    ) -> Result<ReplyStream> {
        let response = self.client.open(params.call(session_id, message_id, true)).await?;
        Ok(ReplyStream::new(self.client, session_id, response))
    }

    /// Shows this version of a message (any id of its `version.sibling_ids`): the conversation continues from it,
    /// along the branch below it that was last shown, for every later read and reply
    /// (`POST /api/chat/sessions/:id/messages/:messageId/select`). Gives the session and the newest page of that
    /// branch, of `limit` messages (1 to 50; `None`: the API's default, 20).
    pub async fn select_version(
        &self,
        session_id: &str,
        message_id: &str,
        limit: Option<u32>,
    ) -> Result<SessionWithMessages> {
        // Choosing the version already chosen changes nothing: safe to repeat.
        let call = Call::post(format!("{}/select", message_path(session_id, message_id)))
            .query(PageParams { limit, cursor: None }.query())
            .idempotent();
        self.client.call(call).await
    }

    /// Stops a reply being written, a resumable one too, and gives it as stored: what was written is kept, with
    /// status `stopped` (`POST /api/chat/sessions/:id/messages/:messageId/stop`).
    pub async fn stop(&self, session_id: &str, message_id: &str) -> Result<StoredMessage> {
        // Stopping a stopped reply changes nothing: safe to repeat.
        let call = Call::post(format!("{}/stop", message_path(session_id, message_id))).idempotent();
        self.client.call(call).await
    }
}

// Attachments.

/// An upload: the file's name, and what it declares itself to be.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttachmentUploadParams {
    /// The file's name (required, up to 255 characters), e.g. `"photo.png"`.
    pub name: String,
    /// The declared type, a hint only (`None`: `application/octet-stream`); the bytes decide.
    pub content_type: Option<String>,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    pub idempotency_key: Option<String>,
}

impl AttachmentUploadParams {
    /// An upload named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        AttachmentUploadParams { name: name.into(), ..AttachmentUploadParams::default() }
    }
}

fn attachment_path(attachment_id: &str) -> String {
    format!("/api/chat/attachments/{}", escape(attachment_id))
}

/// The value of `%XX` escapes decoded as UTF-8; `None` when an escape or the text is malformed.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file name of a Content-Disposition header: RFC 5987's exact `filename*` first, else the plain `filename`.
pub(crate) fn file_name(disposition: &str) -> Option<String> {
    let mut plain = None;
    for part in disposition.split(';').map(str::trim) {
        let (key, value) = match part.split_once('=') {
            Some((key, value)) => (key.trim().to_ascii_lowercase(), value.trim()),
            None => continue,
        };
        if key == "filename*" {
            let lower = value.to_ascii_lowercase();
            if lower.starts_with("utf-8''") {
                if let Some(name) = percent_decode(&value["utf-8''".len()..]) {
                    return Some(name);
                }
            }
        } else if key == "filename" {
            plain = Some(value.trim_matches('"').to_string());
        }
    }
    plain
}

fn attachment_file(answer: Whole) -> AttachmentFile {
    let name =
        answer.headers.get(reqwest::header::CONTENT_DISPOSITION).and_then(|v| v.to_str().ok()).and_then(file_name);
    AttachmentFile { content_type: media_type(&answer).to_ascii_lowercase(), name, data: answer.body }
}

/// The images (PNG, JPEG, WebP, GIF; up to 10 MB) and documents (PDF, DOCX, plain text, markdown; up to 20 MB)
/// sent with messages: upload one, then pass its id in [`MessageParams::attachment_ids`]. Pro and Enterprise: a
/// Free account gets a [`PermissionDenied`](crate::ErrorKind::PermissionDenied). The API decides what a file is
/// from its bytes: another type is a [`BadRequest`](crate::ErrorKind::BadRequest) with
/// [`Error::is_unsupported_media_type`] (415), a file over its kind's limit one with [`Error::is_payload_too_large`]
/// (413), and an account that keeps as many as it may (200 files, 500 MB) a
/// [`Conflict`](crate::ErrorKind::Conflict). Only their owner can read or delete them.
#[derive(Debug, Clone, Copy)]
pub struct Attachments<'a> {
    pub(crate) client: &'a Client,
}

impl Attachments<'_> {
    /// Stores a file and gives the attachment (`POST /api/chat/attachments?name=`, the bytes as the body; answered
    /// 201). The bytes are sent as they are, the same on every retry.
    pub async fn upload(&self, data: impl Into<Vec<u8>>, params: &AttachmentUploadParams) -> Result<Attachment> {
        if params.name.trim().is_empty() {
            return Err(Error::config("An upload needs the file name (AttachmentUploadParams::new(\"photo.png\"))."));
        }
        let content_type = params.content_type.clone().unwrap_or_else(|| "application/octet-stream".to_string());
        let call = Call::post("/api/chat/attachments")
            .query(vec![("name", params.name.clone())])
            .raw(data.into(), content_type)
            .creates(params.idempotency_key.clone());
        self.client.call(call).await
    }

    /// A stored file (`GET /api/chat/attachments/:id`): its bytes, media type and name.
    pub async fn get(&self, attachment_id: &str) -> Result<AttachmentFile> {
        let answer = self.client.fetch(Call::get(attachment_path(attachment_id)).accept("*/*")).await?;
        Ok(attachment_file(answer))
    }

    /// An image's small WebP preview (`GET /api/chat/attachments/:id/thumbnail`); a document has none
    /// ([`NotFound`](crate::ErrorKind::NotFound)).
    pub async fn thumbnail(&self, attachment_id: &str) -> Result<AttachmentFile> {
        let call = Call::get(format!("{}/thumbnail", attachment_path(attachment_id))).accept("*/*");
        Ok(attachment_file(self.client.fetch(call).await?))
    }

    /// Deletes a stored file and frees its place in the account's allowance (`DELETE /api/chat/attachments/:id`).
    pub async fn delete(&self, attachment_id: &str) -> Result<()> {
        self.client.call_empty(Call::new(Method::DELETE, attachment_path(attachment_id))).await
    }
}

// The OpenAI-compatible API.

/// A chat completion.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompletionParams {
    /// A persona id (`"kasa"`, `"merla"`, ...); an unknown one is a [`NotFound`](crate::ErrorKind::NotFound).
    pub model: String,
    /// The conversation so far (at least one).
    pub messages: Vec<ChatMessage>,
    /// From 0 to 2; `None` leaves it to the persona.
    pub temperature: Option<f64>,
    /// Bounds the answer.
    pub max_tokens: Option<u32>,
    /// Your end user's id, for your own tracing.
    pub user: Option<String>,
    /// (Streams only) makes the last chunk carry the token counts.
    pub include_usage: bool,
    /// The functions the model may call (at most 128); the answer's `tool_calls` say which it called.
    pub tools: Vec<Tool>,
    /// Whether and which tool the model must call; `None` leaves it out (`auto` with tools).
    pub tool_choice: Option<ToolChoice>,
    /// Whether the model may call several tools at once; `None` leaves it to the provider.
    pub parallel_tool_calls: Option<bool>,
    /// A JSON reply, checked before it is returned; `None` is text.
    pub response_format: Option<ResponseFormat>,
    /// OpenAI's other parameters, put into the request body as given.
    pub extra: Map<String, Value>,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    pub idempotency_key: Option<String>,
}

impl CompletionParams {
    /// A completion by `model` of `messages`.
    pub fn new(model: impl Into<String>, messages: Vec<ChatMessage>) -> Self {
        CompletionParams { model: model.into(), messages, ..CompletionParams::default() }
    }

    fn call(&self, stream: bool) -> Call {
        let mut body = self.extra.clone();
        body.insert("model".into(), self.model.clone().into());
        body.insert("messages".into(), serde_json::to_value(&self.messages).unwrap_or_else(|_| Value::Array(vec![])));
        body.insert("stream".into(), stream.into());
        if let Some(temperature) = self.temperature {
            body.insert("temperature".into(), temperature.into());
        }
        if let Some(max_tokens) = self.max_tokens {
            body.insert("max_tokens".into(), max_tokens.into());
        }
        if let Some(user) = &self.user {
            body.insert("user".into(), user.clone().into());
        }
        if !self.tools.is_empty() {
            body.insert("tools".into(), serde_json::to_value(&self.tools).unwrap_or(Value::Null));
        }
        if let Some(choice) = &self.tool_choice {
            body.insert("tool_choice".into(), serde_json::to_value(choice).unwrap_or(Value::Null));
        }
        if let Some(parallel) = self.parallel_tool_calls {
            body.insert("parallel_tool_calls".into(), parallel.into());
        }
        if let Some(format) = &self.response_format {
            body.insert("response_format".into(), serde_json::to_value(format).unwrap_or(Value::Null));
        }
        if stream && self.include_usage {
            body.insert("stream_options".into(), serde_json::json!({ "include_usage": true }));
        }
        let call = Call::post("/v1/chat/completions").json(&body).creates(self.idempotency_key.clone());
        if stream {
            call.accept("text/event-stream")
        } else {
            call
        }
    }
}

/// The OpenAI-compatible API (`/v1`): the personas are the models.
#[derive(Debug, Clone, Copy)]
pub struct Completions<'a> {
    pub(crate) client: &'a Client,
}

impl Completions<'_> {
    /// The whole completion (`POST /v1/chat/completions`).
    pub async fn create(&self, params: &CompletionParams) -> Result<ChatCompletion> {
        self.client.call(params.call(false)).await
    }

    /// The completion as OpenAI's chunks (`POST /v1/chat/completions` with `stream: true`). It returns once the
    /// answer has started.
    pub async fn stream(&self, params: &CompletionParams) -> Result<CompletionStream> {
        let response = self.client.open(params.call(true)).await?;
        Ok(CompletionStream::new(self.client, response))
    }

    /// The personas (and the caller's custom ones) as models (`GET /v1/models`).
    pub async fn models(&self) -> Result<ModelList> {
        self.client.call(Call::get("/v1/models")).await
    }
}

// Speech.

/// What to speak.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SynthesizeParams {
    /// Up to 5,000 characters.
    pub text: String,
    /// A voice id from [`Speech::voices`]; `None`: the language's default voice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voice: Option<String>,
    /// The text's language tag (`"en"` when `None`), or `"auto"` to detect it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl SynthesizeParams {
    /// `text`, in `language`.
    pub fn new(text: impl Into<String>, language: impl Into<String>) -> Self {
        SynthesizeParams { text: text.into(), language: Some(language.into()), ..SynthesizeParams::default() }
    }
}

/// Speech (Pro and Enterprise plans) and the voices.
#[derive(Debug, Clone, Copy)]
pub struct Speech<'a> {
    pub(crate) client: &'a Client,
}

impl Speech<'_> {
    /// The voices of the installed engines, of one language (`None` for all) (`GET /api/voice/voices`).
    pub async fn voices(&self, language: Option<&str>) -> Result<Vec<Voice>> {
        #[derive(Deserialize)]
        struct Voices {
            voices: Vec<Voice>,
        }
        let query = language.map(|l| vec![("language", l.to_string())]).unwrap_or_default();
        let answer: Voices = self.client.call(Call::get("/api/voice/voices").query(query)).await?;
        Ok(answer.voices)
    }

    fn synthesize_call(params: &SynthesizeParams, accept: &'static str) -> Call {
        Call::post("/api/voice/synthesize").json(params).accept(accept).creates(params.idempotency_key.clone())
    }

    /// Speaks text and gives the audio's bytes, with its content type (MP3 unless the server is set up otherwise)
    /// and the stored copy's address (`POST /api/voice/synthesize`). Pro and Enterprise plans only (a
    /// [`PermissionDenied`](crate::ErrorKind::PermissionDenied) otherwise; the landing page's samples excepted);
    /// an API key needs the voice scope.
    pub async fn synthesize(&self, params: &SynthesizeParams) -> Result<Audio> {
        let answer = self.client.fetch(Self::synthesize_call(params, ACCEPT_AUDIO)).await?;
        let content_type = media_type(&answer);
        if content_type != "application/json" {
            let audio_url = answer.headers.get("x-kasa-audio-url").and_then(|v| v.to_str().ok()).map(str::to_string);
            return Ok(Audio { data: answer.body, content_type, audio_url });
        }
        // Made before: the API answers with the stored copy's address instead of the audio.
        let stored: Synthesis = decode(&answer, "POST /api/voice/synthesize")?;
        if stored.audio_url.is_empty() {
            return Err(Error::decode("The synthesis answer names no audio."));
        }
        // The address is itself the secret, and may be on another host: the credential is not sent along.
        let audio = self.client.fetch(Call::get(stored.audio_url.clone()).accept(ACCEPT_AUDIO).anonymous()).await?;
        Ok(Audio { content_type: media_type(&audio), data: audio.body, audio_url: Some(stored.audio_url) })
    }

    /// Speaks text and gives the stored audio's address and length (`POST /api/voice/synthesize`): hand
    /// `audio_url` to a player; it needs no credential, and expires.
    pub async fn synthesize_to_url(&self, params: &SynthesizeParams) -> Result<Synthesis> {
        self.client.call(Self::synthesize_call(params, "application/json")).await
    }
}

// Video.

/// A video to make.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct VideoParams {
    /// What the video says and shows (1 to 2,000 characters): read aloud, its sentences shown as captions.
    pub prompt: String,
    /// The prompt's language tag, or `"auto"` to detect it.
    pub language: String,
    /// A voice id from [`Speech::voices`]; `None`: the language's default voice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voice: Option<String>,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl VideoParams {
    /// A video of `prompt`, in `language`.
    pub fn new(prompt: impl Into<String>, language: impl Into<String>) -> Self {
        VideoParams { prompt: prompt.into(), language: language.into(), ..VideoParams::default() }
    }
}

/// Videos made from a prompt: queued jobs that take seconds to minutes (Enterprise plan; an API key needs the
/// voice scope).
#[derive(Debug, Clone, Copy)]
pub struct Video<'a> {
    pub(crate) client: &'a Client,
}

impl Video<'_> {
    /// Queues a video (`POST /api/video/generations`, answered 202 with the job). Other plans get a
    /// [`PermissionDenied`](crate::ErrorKind::PermissionDenied) naming Enterprise; too many unfinished jobs a
    /// [`RateLimit`](crate::ErrorKind::RateLimit) (`too_many_video_jobs`).
    pub async fn create(&self, params: &VideoParams) -> Result<VideoJob> {
        let call = Call::post("/api/video/generations").json(params).creates(params.idempotency_key.clone());
        self.client.call(call).await
    }

    /// One of the caller's jobs (`GET /api/video/generations/:id`); someone else's is a
    /// [`NotFound`](crate::ErrorKind::NotFound).
    pub async fn get(&self, job_id: &str) -> Result<VideoJob> {
        self.client.call(Call::get(format!("/api/video/generations/{}", escape(job_id)))).await
    }

    /// Follows one of the caller's jobs as the server pushes its changes (`GET /api/video/generations/:id/events`):
    /// a [`VideoEvent::Job`](crate::VideoEvent::Job) at once (with `queue_position` while queued) and on each change
    /// of its status or progress, then [`VideoEvent::Done`](crate::VideoEvent::Done) once it has succeeded or
    /// failed. It returns once the stream has opened: someone else's job is a [`NotFound`](crate::ErrorKind::NotFound)
    /// here, more than 5 open streams per person a [`RateLimit`](crate::ErrorKind::RateLimit)
    /// (`too_many_video_streams`).
    pub async fn events(&self, job_id: &str) -> Result<VideoEventStream> {
        let call = Call::get(format!("/api/video/generations/{}/events", escape(job_id))).accept("text/event-stream");
        let response = self.client.open(call).await?;
        Ok(VideoEventStream::new(self.client, response))
    }

    /// The caller's jobs, newest first (`GET /api/video/generations`): `limit` 1 to 50 (`None`: 20), only those
    /// with `status` when given.
    pub async fn list(&self, limit: Option<u32>, status: Option<&str>) -> Result<Vec<VideoJob>> {
        let mut query = Vec::new();
        if let Some(limit) = limit {
            query.push(("limit", limit.to_string()));
        }
        if let Some(status) = status {
            query.push(("status", status.to_string()));
        }
        let list: VideoJobList = self.client.call(Call::get("/api/video/generations").query(query)).await?;
        Ok(list.jobs)
    }

    /// Reads the job every `interval` until it has ended, and gives it: [`VIDEO_SUCCEEDED`] (with `video_url` and
    /// `duration`) or [`VIDEO_FAILED`] (with `error`); a failed job is an answer, not an error of the call.
    ///
    /// `options` is a [`WaitOptions`], or just the interval as a `Duration` (with the other defaults). After
    /// `timeout` (default 15 minutes) it gives an [`ErrorKind::WaitTimeout`](crate::ErrorKind::WaitTimeout) error
    /// (status 0, `wait_timeout`) whose [`video_job`](Error::video_job) is the job as last read; the job goes on
    /// being made. `on_progress` is called with each job read, the last one included. A read that fails gives
    /// the API's error (after the usual retries). Dropping the future stops the wait.
    ///
    /// ```no_run
    /// # use std::time::Duration;
    /// # async fn run(client: kasa::Client, job_id: &str) -> kasa::Result<()> {
    /// let options = kasa::WaitOptions::default()
    ///     .timeout(Duration::from_secs(300))
    ///     .on_progress(|job| println!("{} {}%", job.status, job.progress));
    /// let job = client.video().wait(job_id, options).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn wait<'o>(&self, job_id: &str, options: impl Into<WaitOptions<'o>>) -> Result<VideoJob> {
        let WaitOptions { interval, timeout, mut on_progress } = options.into();
        let mut last: Option<VideoJob> = None;
        let polling = async {
            loop {
                let job = self.get(job_id).await?;
                if let Some(report) = on_progress.as_mut() {
                    report(&job);
                }
                if job.is_finished() {
                    return Ok::<VideoJob, Error>(job);
                }
                last = Some(job);
                tokio::time::sleep(interval).await;
            }
        };
        // The polling future (and its borrow of `last`) is gone once the timeout has ended it.
        let ended = tokio::time::timeout(timeout, polling).await;
        match ended {
            Ok(outcome) => outcome,
            Err(_) => Err(wait_timed_out(job_id, timeout, last)),
        }
    }

    /// The MP4 of a job that succeeded (its `video_url`, fetched without a credential: the address is the secret).
    /// A job without a video (not succeeded yet, or failed) gives an
    /// [`ErrorKind::VideoNotReady`](crate::ErrorKind::VideoNotReady) error (status 0, `video_not_ready`) and sends
    /// nothing; a video past its time to live is a [`NotFound`](crate::ErrorKind::NotFound).
    pub async fn download(&self, job: &VideoJob) -> Result<crate::types::VideoFile> {
        let url = match job.video_url.as_deref().filter(|u| !u.is_empty()) {
            Some(url) => url,
            None => return Err(video_not_ready(job)),
        };
        let answer = self.client.fetch(Call::get(url).accept("video/mp4").anonymous()).await?;
        Ok(crate::types::VideoFile { content_type: media_type(&answer), data: answer.body })
    }
}

/// The default of [`WaitOptions::interval`]: 2 seconds between two reads of a job.
pub const DEFAULT_WAIT_INTERVAL: Duration = Duration::from_secs(2);
/// The default of [`WaitOptions::timeout`]: 15 minutes in all.
pub const DEFAULT_WAIT_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// What [`WaitOptions::on_progress`] calls with each job read.
pub type ProgressCallback<'a> = Box<dyn FnMut(&VideoJob) + Send + 'a>;

/// How [`Video::wait`] polls a job: every `interval` (default 2 s), for `timeout` in all (default 15 minutes),
/// calling `on_progress` with each job read.
///
/// A `Duration` converts into the options with that interval, so `wait(id, Duration::from_secs(1))` works too.
pub struct WaitOptions<'a> {
    /// Between two reads of the job.
    pub interval: Duration,
    /// How long to wait in all; then the wait gives an [`ErrorKind::WaitTimeout`](crate::ErrorKind::WaitTimeout)
    /// error.
    pub timeout: Duration,
    /// Called with the job each time it is read (its `status` and `progress`, for a progress bar), on the task
    /// that waits.
    pub on_progress: Option<ProgressCallback<'a>>,
}

impl<'a> WaitOptions<'a> {
    /// The defaults: every 2 s, for 15 minutes, without a progress callback.
    pub fn new() -> Self {
        WaitOptions { interval: DEFAULT_WAIT_INTERVAL, timeout: DEFAULT_WAIT_TIMEOUT, on_progress: None }
    }

    /// Between two reads of the job.
    pub fn interval(mut self, interval: Duration) -> Self {
        self.interval = interval;
        self
    }

    /// How long to wait in all.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Calls `report` with the job each time it is read.
    pub fn on_progress(mut self, report: impl FnMut(&VideoJob) + Send + 'a) -> Self {
        self.on_progress = Some(Box::new(report));
        self
    }
}

impl Default for WaitOptions<'_> {
    fn default() -> Self {
        WaitOptions::new()
    }
}

impl From<Duration> for WaitOptions<'_> {
    /// The defaults, read every `interval`.
    fn from(interval: Duration) -> Self {
        WaitOptions::new().interval(interval)
    }
}

impl std::fmt::Debug for WaitOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WaitOptions")
            .field("interval", &self.interval)
            .field("timeout", &self.timeout)
            .field("on_progress", &self.on_progress.as_ref().map(|_| "FnMut(&VideoJob)"))
            .finish()
    }
}

/// The error of a wait that ran out of time, worded like the other SDKs':
/// `The video job <id> had not finished after 90 s (status running, 40% done).`
fn wait_timed_out(job_id: &str, timeout: Duration, last: Option<VideoJob>) -> Error {
    let millis = timeout.as_millis();
    let limit = if millis < 10_000 { format!("{millis} ms") } else { format!("{} s", (millis + 500) / 1000) };
    let at = match &last {
        Some(job) => format!(" (status {}, {}% done)", job.status, job.progress),
        None => String::new(),
    };
    Error::video(
        crate::error::ErrorKind::WaitTimeout,
        format!("The video job {job_id} had not finished after {limit}{at}."),
        serde_json::json!({ "id": job_id, "job": last }),
    )
}

/// The error of a download of a job that has no video.
fn video_not_ready(job: &VideoJob) -> Error {
    Error::video(
        crate::error::ErrorKind::VideoNotReady,
        format!("The video job {} has no video (its status is {}): wait for it to succeed first.", job.id, job.status),
        serde_json::json!({ "id": job.id, "status": job.status, "job": job }),
    )
}

// Languages.

/// The language catalogue (what Kasa can do in each language) and language detection. No credential needed.
#[derive(Debug, Clone, Copy)]
pub struct Languages<'a> {
    pub(crate) client: &'a Client,
}

impl Languages<'_> {
    /// The catalogue (`GET /api/languages`); with a capability, only the languages that have it.
    pub async fn list(&self, capability: Option<Capability>) -> Result<LanguageList> {
        let query = capability.map(|c| vec![("capability", c.as_str().to_string())]).unwrap_or_default();
        self.client.call(Call::get("/api/languages").query(query)).await
    }

    /// One language by any of its codes or a tag (`"tw"`, `"twi"`, `"en-GB"`); an unknown one is a
    /// [`NotFound`](crate::ErrorKind::NotFound) (`GET /api/languages/:code`).
    pub async fn get(&self, code: &str) -> Result<Language> {
        self.client.call(Call::get(format!("/api/languages/{}", escape(code)))).await
    }

    /// The likeliest language of `text`, its confidence and the alternatives (`POST /api/languages/detect`);
    /// `hints` tell the detector what the app knows.
    pub async fn detect(&self, text: &str, hints: Option<&DetectHints>) -> Result<DetectedLanguage> {
        #[derive(Serialize)]
        struct Body<'a> {
            text: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            hints: Option<&'a DetectHints>,
        }
        // Detection only reads: safe to repeat.
        let call = Call::post("/api/languages/detect").json(&Body { text, hints }).idempotent();
        self.client.call(call).await
    }
}

// Geo.

/// Where an IP address appears to be.
#[derive(Debug, Clone, Copy)]
pub struct Geo<'a> {
    pub(crate) client: &'a Client,
}

impl Geo<'_> {
    /// The country, region, city, time zone, currency and the languages spoken where `ip` appears to be
    /// (`GET /api/geo`); `None` looks up the caller's own address. An address Kasa cannot place is `found: false`,
    /// not an error; something that is not an IP address is a [`BadRequest`](crate::ErrorKind::BadRequest).
    pub async fn lookup(&self, ip: Option<&str>) -> Result<GeoLookup> {
        let query = ip.map(|ip| vec![("ip", ip.to_string())]).unwrap_or_default();
        self.client.call(Call::get("/api/geo").query(query)).await
    }
}

// API keys.

/// A new API key.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyCreateParams {
    /// Up to 60 characters.
    pub name: String,
    /// What the key may call; empty: every scope.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<Scope>,
    /// From 1 to 365; `None`: the key never expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_days: Option<u32>,
    /// `true`: a key of the caller's team rather than their own (team owners and admins only; anyone else gets a
    /// [`PermissionDenied`](crate::ErrorKind::PermissionDenied)). The created key's `team_id` names the team, and
    /// its calls count on the team's quota.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub team: bool,
    /// Ties retries of this call together (one is made when `None`, unless turned off).
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl ApiKeyCreateParams {
    /// A key named `name` with `scopes` (empty: every scope) that never expires.
    pub fn new(name: impl Into<String>, scopes: Vec<Scope>) -> Self {
        ApiKeyCreateParams { name: name.into(), scopes, ..ApiKeyCreateParams::default() }
    }

    /// The same key, made for the caller's team (see [`team`](ApiKeyCreateParams::team)).
    pub fn for_team(self) -> Self {
        ApiKeyCreateParams { team: true, ..self }
    }
}

/// The caller's API keys. Managing keys needs an access token (sign in first): a key cannot manage keys.
#[derive(Debug, Clone, Copy)]
pub struct ApiKeys<'a> {
    pub(crate) client: &'a Client,
}

impl ApiKeys<'_> {
    /// Makes a key (`POST /api/developer/keys`). Its `secret` is shown this once: store it now.
    pub async fn create(&self, params: &ApiKeyCreateParams) -> Result<CreatedApiKey> {
        let call = Call::post("/api/developer/keys").json(params).creates(params.idempotency_key.clone());
        self.client.call(call).await
    }

    /// The caller's keys, newest first, revoked ones included, masked (`GET /api/developer/keys`).
    pub async fn list(&self) -> Result<Vec<ApiKey>> {
        #[derive(Deserialize)]
        struct Keys {
            keys: Vec<ApiKey>,
        }
        let answer: Keys = self.client.call(Call::get("/api/developer/keys")).await?;
        Ok(answer.keys)
    }

    /// Makes a key stop working (`DELETE /api/developer/keys/:id`); revoking it again is fine, an unknown id is a
    /// [`NotFound`](crate::ErrorKind::NotFound).
    pub async fn revoke(&self, key_id: &str) -> Result<()> {
        self.client.call_empty(Call::new(Method::DELETE, format!("/api/developer/keys/{}", escape(key_id)))).await
    }
}

// Analytics.

/// The caller's own usage figures. They take an access token or an API key with the analytics scope; reading them
/// never uses up the monthly quota. The figures follow the calls within seconds, not at once.
#[derive(Debug, Clone, Copy)]
pub struct Analytics<'a> {
    pub(crate) client: &'a Client,
}

impl Analytics<'_> {
    /// The caller's calls per API area and the monthly quota, response times, and the sessions and messages per
    /// persona and language (`GET /api/developer/analytics`).
    pub async fn summary(&self) -> Result<crate::types::AnalyticsSummary> {
        let answer: Data<crate::types::AnalyticsSummary> =
            self.client.call(Call::get("/api/developer/analytics")).await?;
        Ok(answer.data)
    }

    /// The caller's API calls per day, endpoint, status and key (`GET /api/analytics/usage`): over `days` (1 to
    /// 90; `None`: 30), only those made with the key `key_id` when given.
    pub async fn usage(&self, days: Option<u32>, key_id: Option<&str>) -> Result<Usage> {
        let mut query = Vec::new();
        if let Some(days) = days {
            query.push(("days", days.to_string()));
        }
        if let Some(key_id) = key_id {
            query.push(("keyId", key_id.to_string()));
        }
        let answer: Data<Usage> = self.client.call(Call::get("/api/analytics/usage").query(query)).await?;
        Ok(answer.data)
    }

    /// The caller's newest chat sessions with their message counts (`GET /api/analytics/sessions`); `limit` 1 to
    /// 100 (`None`: 50).
    pub async fn sessions(&self, limit: Option<u32>) -> Result<Vec<AnalyticsSession>> {
        let query = limit.map(|l| vec![("limit", l.to_string())]).unwrap_or_default();
        let answer: Data<Vec<AnalyticsSession>> =
            self.client.call(Call::get("/api/analytics/sessions").query(query)).await?;
        Ok(answer.data)
    }
}
