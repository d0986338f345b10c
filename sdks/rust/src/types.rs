//! The answers of the Kasa API, as Rust structs of its JSON. Timestamps are RFC 3339 strings
//! (`"2026-11-24T09:30:00.000Z"`); a field the API may leave out or send as null is an `Option`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Kasa account, as `GET /api/auth/me` gives it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct User {
    pub id: String,
    pub username: String,
    pub email: String,
    /// The plan: `"free"`, `"pro"` or `"enterprise"`.
    pub subscription_tier: String,
    pub created_at: String,
}

/// The signed-in person as `GET /api/auth/me` shows them: the account, and whether they run this Kasa.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MeUser {
    #[serde(flatten)]
    pub user: User,
    /// Whether the person is an operator of this Kasa (may open `/admin`), read afresh on every call.
    pub operator: bool,
}

/// The answer of signing up or in; the client sends `token` on later calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AuthResponse {
    pub success: bool,
    pub token: String,
    pub user: User,
    pub message: String,
}

/// One of the assistants to chat with: Kasa's six (kasa, merla, ticha, massa, nana, dokta), then the caller's own
/// custom ones.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Persona {
    pub id: String,
    pub name: String,
    pub expertise: String,
    pub system_prompt: String,
    pub avatar: Option<String>,
    pub color: Option<String>,
    pub greeting: Option<String>,
}

/// A conversation with one persona. Only its owner sees it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Session {
    pub id: String,
    pub persona_id: String,
    pub title: String,
    pub created_at: String,
}

/// One page of the caller's sessions, newest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SessionPage {
    pub sessions: Vec<Session>,
    /// Leads to the next (older) page: pass it as [`PageParams::cursor`]. `None` on the last page.
    pub next_cursor: Option<String>,
}

/// A message being written.
pub const STATUS_STREAMING: &str = "streaming";
/// A reply written to its end.
pub const STATUS_COMPLETE: &str = "complete";
/// A reply stopped before its end (what was written is kept).
pub const STATUS_STOPPED: &str = "stopped";
/// A reply no AI provider could finish.
pub const STATUS_FAILED: &str = "failed";

/// A message of a session as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StoredMessage {
    pub id: String,
    /// `"user"` or `"assistant"`.
    pub role: String,
    pub content: String,
    pub timestamp: String,
    /// `"text"`, `"voice"` or `"image"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// How the reply ended: [`STATUS_COMPLETE`], [`STATUS_STOPPED`], [`STATUS_FAILED`] ([`STATUS_STREAMING`] while
    /// it is written).
    pub status: String,
    pub provider: Option<String>,
    pub model: Option<String>,
    /// Set when the message has more than one version (an edited question, a regenerated reply).
    pub version: Option<MessageVersion>,
    /// The images and documents sent with a message of the caller's.
    pub attachments: Option<Vec<MessageAttachment>>,
}

/// An image or document uploaded with [`Attachments::upload`](crate::Attachments::upload), as its owner sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Attachment {
    /// 22 URL-safe characters: pass it in [`MessageParams::attachment_ids`](crate::MessageParams::attachment_ids).
    pub id: String,
    /// [`ATTACHMENT_IMAGE`] or [`ATTACHMENT_DOCUMENT`].
    pub kind: String,
    /// The file name it was uploaded with (a very long one is cut, keeping its extension).
    pub name: String,
    /// What the bytes are, decided by the API from them (never from the declared type).
    pub media_type: String,
    /// In bytes.
    pub size: u64,
    pub created_at: String,
    /// Documents: the pages (PDF) or sections (DOCX, text) of the text read from it; `None` for images.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<u64>,
    /// Documents: the characters of text read from it (0: none could be read, e.g. a scanned PDF).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub characters: Option<u64>,
    /// Images: [`Attachments::thumbnail`](crate::Attachments::thumbnail) gives a small preview.
    pub has_thumbnail: bool,
}

/// A stored attachment's bytes, or its preview's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttachmentFile {
    pub data: Vec<u8>,
    /// The file's media type (`"image/png"`, `"application/pdf"`...), without parameters.
    pub content_type: String,
    /// The file name the answer gave, when it gave one.
    pub name: Option<String>,
}

/// An image attachment (PNG, JPEG, WebP, GIF).
pub const ATTACHMENT_IMAGE: &str = "image";
/// A document attachment (PDF, DOCX, plain text, markdown).
pub const ATTACHMENT_DOCUMENT: &str = "document";

/// An image or document as a message carries it (Pro and Enterprise).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MessageAttachment {
    /// 22 URL-safe characters.
    pub id: String,
    /// [`ATTACHMENT_IMAGE`] or [`ATTACHMENT_DOCUMENT`].
    pub kind: String,
    /// The file name it was uploaded with.
    pub name: String,
    /// What the bytes are, decided by the API from them (never from the declared type).
    pub media_type: String,
    /// In bytes.
    pub size: u64,
}

/// Where a message stands among its versions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MessageVersion {
    /// Its place among `sibling_ids`, from 0.
    pub index: u32,
    pub count: u32,
    /// Every version's id, oldest first, this message's included.
    pub sibling_ids: Vec<String>,
}

/// A stored reply, with the id of the user message it answers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AssistantReply {
    #[serde(flatten)]
    pub message: StoredMessage,
    pub user_message_id: String,
}

impl std::ops::Deref for AssistantReply {
    type Target = StoredMessage;
    fn deref(&self) -> &StoredMessage {
        &self.message
    }
}

/// A session and one page of its messages, oldest first within the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SessionWithMessages {
    #[serde(flatten)]
    pub session: Session,
    pub messages: Vec<StoredMessage>,
    /// Leads to the page of older messages; `None` when there are none.
    pub next_cursor: Option<String>,
}

impl std::ops::Deref for SessionWithMessages {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}

/// One page of a session's messages, oldest first within the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MessagePage {
    pub messages: Vec<StoredMessage>,
    /// Leads to the page of older messages; `None` when there are none.
    pub next_cursor: Option<String>,
}

/// Chooses a page of a cursor-paged list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageParams {
    /// The page's size, 1 to 50 (`None`: the API's default, 20).
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page (`None`: the first, newest page).
    pub cursor: Option<String>,
}

impl PageParams {
    /// The first page, of `limit` items.
    pub fn limit(limit: u32) -> PageParams {
        PageParams { limit: Some(limit), cursor: None }
    }

    /// The page after the one whose `next_cursor` this is, of `limit` items.
    pub fn after(cursor: impl Into<String>, limit: Option<u32>) -> PageParams {
        PageParams { limit, cursor: Some(cursor.into()) }
    }

    pub(crate) fn query(&self) -> Vec<(&'static str, String)> {
        let mut query = Vec::new();
        if let Some(limit) = self.limit {
            query.push(("limit", limit.to_string()));
        }
        if let Some(cursor) = &self.cursor {
            query.push(("cursor", cursor.clone()));
        }
        query
    }
}

/// A conversation's read-only link: `path` (`/share/<token>`) on the site's origin.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConversationShare {
    /// The link's only secret (22 URL-safe characters).
    pub token: String,
    pub path: String,
    pub session_id: String,
    /// The messages a reader sees: those written up to `shared_at` (sharing again moves it to now).
    pub message_count: u32,
    pub shared_at: String,
}

/// A message as a shared conversation shows it: who wrote it, what, and when.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Message {
    pub id: String,
    /// `"user"` or `"assistant"`.
    pub role: String,
    pub content: String,
    pub timestamp: String,
}

/// The persona of a shared conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SharedPersona {
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
    pub color: Option<String>,
}

/// What anyone with the link reads: the conversation as it was when last shared, nothing about its owner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SharedConversation {
    pub title: String,
    pub persona: SharedPersona,
    pub shared_at: String,
    pub messages: Vec<Message>,
    /// True when older messages were left out (a shared page shows at most the latest 200).
    pub truncated: bool,
}

/// A message of `/v1/chat/completions`, in OpenAI's shape. `content` is a string, or a list of content parts
/// (`[{"type": "text", "text": "..."}]`); it may be left null only on an assistant message with `tool_calls`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `"system"`, `"developer"`, `"user"`, `"assistant"` or `"tool"`.
    pub role: String,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub content: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// An assistant message's calls of tools, as an earlier answer gave them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// What a `"tool"` message answers: the `id` of a call in an earlier assistant message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    fn text(role: &str, content: String) -> ChatMessage {
        ChatMessage {
            role: role.into(),
            content: Value::String(content),
            name: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// A message from the user.
    pub fn user(content: impl Into<String>) -> ChatMessage {
        ChatMessage::text("user", content.into())
    }

    /// Instructions for the model.
    pub fn system(content: impl Into<String>) -> ChatMessage {
        ChatMessage::text("system", content.into())
    }

    /// What the model said earlier.
    pub fn assistant(content: impl Into<String>) -> ChatMessage {
        ChatMessage::text("assistant", content.into())
    }

    /// The tools the model called earlier, as its answer gave them (send their results after it with [`tool`]).
    ///
    /// [`tool`]: ChatMessage::tool
    pub fn assistant_tool_calls(tool_calls: Vec<ToolCall>) -> ChatMessage {
        ChatMessage { tool_calls, content: Value::Null, ..ChatMessage::text("assistant", String::new()) }
    }

    /// The result of a tool, answering the call with the id `tool_call_id`.
    pub fn tool(tool_call_id: impl Into<String>, content: impl Into<String>) -> ChatMessage {
        ChatMessage { tool_call_id: Some(tool_call_id.into()), ..ChatMessage::text("tool", content.into()) }
    }
}

/// A call of a function tool that the model made.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolCall {
    pub id: String,
    /// `"function"`.
    #[serde(rename = "type")]
    pub kind: String,
    pub function: ToolCallFunction,
}

/// The function a [`ToolCall`] calls, with its arguments as the model wrote them: a JSON text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolCallFunction {
    pub name: String,
    pub arguments: String,
}

/// A function the model may call ([`CompletionParams::tools`](crate::CompletionParams::tools)); the caller runs it
/// and sends its result back with [`ChatMessage::tool`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// `"function"`.
    #[serde(rename = "type")]
    pub kind: String,
    pub function: FunctionDefinition,
}

impl Tool {
    /// A function tool: its name (1 to 64 letters, digits, `_` or `-`), what it is for and its parameters as a JSON
    /// Schema object.
    pub fn function(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Tool {
        Tool {
            kind: "function".into(),
            function: FunctionDefinition {
                name: name.into(),
                description: Some(description.into()),
                parameters: Some(parameters),
                strict: None,
            },
        }
    }
}

/// What a function [`Tool`] is: its name, description and parameters (a JSON Schema object; `None`: it takes none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FunctionDefinition {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

/// Whether and which tool the model must call ([`CompletionParams::tool_choice`](crate::CompletionParams::tool_choice)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides (the default with tools).
    Auto,
    /// No tool.
    None,
    /// At least one tool.
    Required,
    /// The named function.
    Function(String),
}

impl Serialize for ToolChoice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            ToolChoice::Auto => serializer.serialize_str("auto"),
            ToolChoice::None => serializer.serialize_str("none"),
            ToolChoice::Required => serializer.serialize_str("required"),
            ToolChoice::Function(name) => {
                serde_json::json!({ "type": "function", "function": { "name": name } }).serialize(serializer)
            }
        }
    }
}

/// The form of the reply ([`CompletionParams::response_format`](crate::CompletionParams::response_format)). Kasa
/// checks a JSON reply before it returns it; one that is not what was asked for is a 502 (`invalid_model_output`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResponseFormat {
    /// Text (the default).
    Text,
    /// Any JSON object.
    JsonObject,
    /// JSON valid against a JSON Schema.
    JsonSchema { json_schema: JsonSchemaFormat },
}

/// The JSON Schema a [`ResponseFormat::JsonSchema`] reply must satisfy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JsonSchemaFormat {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `None`: any JSON value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

/// A completion's token counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompletionUsage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
}

/// The answer of a completion.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompletionMessage {
    pub role: String,
    /// The reply (with a JSON [`ResponseFormat`], checked JSON text); `None` when the model only called tools.
    pub content: Option<String>,
    pub refusal: Option<String>,
    /// The tools the model called (`finish_reason` `"tool_calls"`): run them and send their results back.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
}

/// One choice of a completion (Kasa gives one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompletionChoice {
    pub index: u32,
    pub message: CompletionMessage,
    /// `"stop"`, `"length"` (the token limit) or `"tool_calls"`.
    pub finish_reason: Option<String>,
}

/// The whole answer of `POST /v1/chat/completions`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatCompletion {
    pub id: String,
    pub object: String,
    pub created: i64,
    pub model: String,
    pub choices: Vec<CompletionChoice>,
    pub usage: CompletionUsage,
    pub system_fingerprint: Option<String>,
}

/// What a chunk adds to the answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChunkDelta {
    pub role: Option<String>,
    pub content: Option<String>,
    /// Pieces of the tools' calls: a call's first piece has its `index`, `id`, `kind` and `function.name`; the pieces
    /// after it carry parts of `function.arguments` under the same `index`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ChunkToolCall>,
}

/// A piece of a streamed tool call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChunkToolCall {
    pub index: u32,
    pub id: Option<String>,
    /// `"function"`, on a call's first piece.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub function: ChunkToolCallFunction,
}

/// The function of a [`ChunkToolCall`]: its name (first piece), or a part of its arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChunkToolCallFunction {
    pub name: Option<String>,
    pub arguments: Option<String>,
}

/// One choice of a chunk.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChunkChoice {
    pub index: u32,
    pub delta: ChunkDelta,
    /// Set on a choice's last chunk (`"stop"`, `"length"`, `"tool_calls"`).
    pub finish_reason: Option<String>,
}

/// One chunk of a streamed completion. The last may carry only `usage` (and no choices).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatCompletionChunk {
    pub id: String,
    pub object: String,
    pub created: i64,
    pub model: String,
    pub choices: Vec<ChunkChoice>,
    pub usage: Option<CompletionUsage>,
    pub system_fingerprint: Option<String>,
}

/// A model of the OpenAI-compatible API: a persona.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Model {
    pub id: String,
    pub object: String,
    pub created: i64,
    pub owned_by: String,
    /// The persona's display name.
    pub name: String,
    /// The persona's expertise.
    pub description: String,
}

/// The answer of `GET /v1/models`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelList {
    pub object: String,
    pub data: Vec<Model>,
}

/// What Kasa can do in a language on the running platform.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageCapabilities {
    pub detect: bool,
    pub chat: bool,
    pub speak: bool,
    pub listen: bool,
    pub translate: bool,
}

/// A language of the catalogue.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Language {
    /// The code to use everywhere in Kasa: ISO 639-1 where one exists, else ISO 639-3 (`"gaa"`).
    pub code: String,
    #[serde(rename = "iso6391")]
    pub iso639_1: Option<String>,
    #[serde(rename = "iso6393")]
    pub iso639_3: Option<String>,
    pub name: String,
    pub native_name: String,
    pub capabilities: LanguageCapabilities,
    pub speech: LanguageSpeech,
}

/// An engine with a voice for a language.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageSpeechEngine {
    /// Its id, as voices and syntheses name it (`khaya`, `espeak-ng`...).
    pub engine: String,
    /// Its name for people, e.g. `eSpeak NG (offline)`.
    pub name: String,
    /// Whether this server has it set up (a key, or the offline engine installed).
    pub configured: bool,
}

/// Which engine reads a language aloud here, and every engine with a voice for it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageSpeech {
    /// The engine that speaks the language on this server (the first configured one of `engines`); `None`: not read
    /// aloud.
    pub engine: Option<String>,
    /// In Kasa's routing order (specialists first, the offline one last).
    pub engines: Vec<LanguageSpeechEngine>,
}

/// The answer of `GET /api/languages`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageList {
    pub count: usize,
    pub languages: Vec<Language>,
}

/// A language capability, to filter the catalogue with [`Languages::list`](crate::Languages::list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    Detect,
    Chat,
    Speak,
    Listen,
    Translate,
}

impl Capability {
    /// The capability's name in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Detect => "detect",
            Capability::Chat => "chat",
            Capability::Speak => "speak",
            Capability::Listen => "listen",
            Capability::Translate => "translate",
        }
    }
}

/// A language a text may be in, with the detector's confidence (0 to 1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageGuess {
    pub language: String,
    pub name: String,
    pub confidence: f64,
}

/// The likeliest language of a text, and the alternatives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DetectedLanguage {
    #[serde(flatten)]
    pub guess: LanguageGuess,
    /// False when Kasa is not sure (a text too short or too mixed): the language is then only a guess.
    pub reliable: bool,
    pub alternatives: Vec<LanguageGuess>,
}

impl std::ops::Deref for DetectedLanguage {
    type Target = LanguageGuess;
    fn deref(&self) -> &LanguageGuess {
        &self.guess
    }
}

/// What the app knows, to help language detection.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetectHints {
    /// The language the user chose in your app.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_language: Option<String>,
    /// The browser's or system's locale, e.g. `"fr-CI"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_locale: Option<String>,
    /// The user's latest messages, oldest first (at most 10).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recent: Vec<String>,
}

/// A voice of an installed speech engine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Voice {
    pub id: String,
    pub name: String,
    /// The language code (as in the catalogue).
    pub language: String,
    /// The locale the voice speaks.
    pub locale: String,
    pub engine: String,
    /// `"male"`, `"female"`, or `None`.
    pub gender: Option<String>,
}

/// Where the stored audio of a synthesis is: `audio_url` needs no credential to fetch, and expires.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Synthesis {
    /// Relative to the API's address (or absolute, from a cloud store).
    pub audio_url: String,
    /// The audio's length in seconds.
    pub duration: f64,
    pub id: Option<String>,
    pub content_type: Option<String>,
    pub language: Option<String>,
    pub voice: Option<String>,
    pub engine: Option<String>,
}

/// Synthesized speech.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Audio {
    /// The audio's bytes.
    pub data: Vec<u8>,
    /// `"audio/mpeg"` (the platform's default), `"audio/ogg"` or `"audio/wav"`.
    pub content_type: String,
    /// The address of the stored copy (no credential needed to fetch it; it expires), when the API named one.
    pub audio_url: Option<String>,
}

/// Where an IP address appears to be; the place fields are `None` when `found` is false.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeoLookup {
    pub ip: String,
    pub found: bool,
    /// ISO 3166-1 alpha-2, e.g. `"GH"`.
    pub country: Option<String>,
    pub country_name: Option<String>,
    pub region: Option<String>,
    pub city: Option<String>,
    /// An IANA time zone, e.g. `"Africa/Accra"`.
    pub timezone: Option<String>,
    /// ISO 4217, e.g. `"GHS"`.
    pub currency: Option<String>,
    /// Codes of the languages spoken there, most used first.
    pub suggested_languages: Vec<String>,
    /// Why nothing was found, when `found` is false.
    pub message: Option<String>,
}

/// The scopes of an API key: what it may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// `/api/personas`, `/api/chat/*` and `/v1/*`.
    Chat,
    /// `/api/voice/*`, `/api/translate` and `/api/video/*`.
    Voice,
    /// `/api/developer/services/*`, `/api/developer/analytics` and `/api/analytics/*`.
    Analytics,
}

/// An API key as listed: masked, never the secret.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ApiKey {
    pub id: String,
    pub name: String,
    /// E.g. `"ksk_ab12…wxyz"`: the first eight and the last four characters.
    pub masked_key: String,
    pub scopes: Vec<String>,
    pub created_at: String,
    /// `None` for a key that never expires.
    pub expires_at: Option<String>,
    /// `None` for a key never used (it is updated at most once a minute).
    pub last_used_at: Option<String>,
    /// `None` for a key that works.
    pub revoked_at: Option<String>,
    /// The team the key belongs to, `None` for a personal key.
    pub team_id: Option<String>,
}

/// A new key. `secret` (`"ksk_…"`) is shown this once: store it now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreatedApiKey {
    pub secret: String,
    pub key: ApiKey,
    pub message: String,
}

/// The caller's plan quota for the current calendar month (UTC).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuotaUsage {
    /// The month, e.g. `"2026-11"`.
    pub period: String,
    pub used: i64,
    /// `None` on unlimited plans.
    pub limit: Option<i64>,
}

/// The caller's calls: their share per API area and the monthly quota.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AnalyticsUsage {
    /// An API area (chat, voice, auth, analytics...) to its percent of the caller's calls.
    pub breakdown: BTreeMap<String, f64>,
    pub total_calls: i64,
    pub quota: QuotaUsage,
}

/// The caller's calls over the last 30 days.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AnalyticsPerformance {
    /// The mean response time in milliseconds.
    pub average_response_time: f64,
    /// In percent.
    pub uptime: f64,
    /// The percent of calls answered with a 5xx.
    pub error_rate: f64,
}

/// The caller's own figures (`GET /api/developer/analytics`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AnalyticsSummary {
    pub usage: AnalyticsUsage,
    pub performance: AnalyticsPerformance,
    /// Sessions per persona id.
    pub persona_usage: BTreeMap<String, i64>,
    /// User messages per language code.
    pub language_usage: BTreeMap<String, i64>,
    pub sessions: i64,
    pub messages: i64,
    /// Speech read aloud and finished video jobs over the same 30 days.
    pub voice: AnalyticsVoice,
}

/// The caller's own voice activity (`voice` of `GET /api/developer/analytics`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AnalyticsVoice {
    pub speech_clips: i64,
    pub speech_seconds: f64,
    pub videos_made: i64,
    pub videos_failed: i64,
}

/// One UTC day of API calls.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UsageDay {
    /// E.g. `"2026-11-24"`.
    pub date: String,
    pub calls: i64,
    pub errors: i64,
}

/// The calls of one endpoint (`"METHOD route"`, e.g. `"GET chat"`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EndpointUsage {
    pub endpoint: String,
    pub calls: i64,
}

/// The calls answered with one HTTP status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusUsage {
    pub status: u16,
    pub calls: i64,
}

/// The calls made with one API key; `key_id` is `None` for calls made with an access token.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct KeyUsage {
    pub key_id: Option<String>,
    pub calls: i64,
}

/// The caller's API calls over a window of days (`GET /api/analytics/usage`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Usage {
    pub from: String,
    pub to: String,
    pub total_calls: i64,
    /// One entry per UTC day of the window, oldest first, days without calls included.
    pub days: Vec<UsageDay>,
    /// The most called endpoints first.
    pub by_endpoint: Vec<EndpointUsage>,
    pub by_status: Vec<StatusUsage>,
    pub by_key: Vec<KeyUsage>,
}

/// One of the caller's chat sessions with its message count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AnalyticsSession {
    pub id: String,
    pub persona_id: String,
    pub title: String,
    pub created_at: String,
    pub message_count: i64,
    /// `None` for a session without messages.
    pub last_message_at: Option<String>,
}

/// A video job waiting for a renderer.
pub const VIDEO_QUEUED: &str = "queued";
/// A video job being rendered (see `progress`).
pub const VIDEO_RUNNING: &str = "running";
/// A finished video job: `video_url` and `duration` are set.
pub const VIDEO_SUCCEEDED: &str = "succeeded";
/// A video job that failed: `error` says why.
pub const VIDEO_FAILED: &str = "failed";

/// A video being made from a prompt (Enterprise): queued, then running, then succeeded or failed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct VideoJob {
    pub id: String,
    /// [`VIDEO_QUEUED`], [`VIDEO_RUNNING`], [`VIDEO_SUCCEEDED`] or [`VIDEO_FAILED`].
    pub status: String,
    /// 0 to 100.
    pub progress: u8,
    pub prompt: String,
    pub language: String,
    pub voice: Option<String>,
    /// What makes the video: `"offline"` (speech and caption frames made on the server) or a hosted model.
    pub renderer: String,
    /// `"burned-in"` or `"subtitle-track"`, once rendering started.
    pub captions: Option<String>,
    /// Where to fetch the MP4 once it succeeded (no credential needed: the address is the secret).
    pub video_url: Option<String>,
    /// Seconds of video, once it succeeded.
    pub duration: Option<f64>,
    /// Why it failed.
    pub error: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl VideoJob {
    /// Whether the job has ended ([`VIDEO_SUCCEEDED`] or [`VIDEO_FAILED`]).
    pub fn is_finished(&self) -> bool {
        self.status == VIDEO_SUCCEEDED || self.status == VIDEO_FAILED
    }
}

/// The caller's video jobs, newest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VideoJobList {
    pub jobs: Vec<VideoJob>,
}

/// A finished video's bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VideoFile {
    /// The MP4's bytes.
    pub data: Vec<u8>,
    /// `"video/mp4"`.
    pub content_type: String,
}
