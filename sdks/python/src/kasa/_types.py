"""The answers of the Kasa API, as the JSON it sends (camelCase keys, exactly as GET /api/openapi.json describes
them). TypedDicts cost nothing at run time and keep fields a newer API adds."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

SubscriptionTier = Literal["free", "pro", "enterprise"]
ApiKeyScope = Literal["chat", "voice", "analytics"]
MessageStatus = Literal["streaming", "complete", "stopped", "failed"]
VideoJobStatus = Literal["queued", "running", "succeeded", "failed"]
LanguageCapability = Literal["detect", "chat", "speak", "listen", "translate"]
AttachmentKind = Literal["image", "document"]


class User(TypedDict):
    id: str
    username: str
    email: str
    subscriptionTier: SubscriptionTier
    createdAt: str


class MeUser(User):
    """The signed-in person as GET /api/auth/me shows them: the account, and whether they run this Kasa."""

    operator: bool


class AuthResponse(TypedDict):
    success: bool
    token: str
    user: User
    message: str


class Persona(TypedDict):
    id: str
    name: str
    expertise: str
    systemPrompt: str
    avatar: NotRequired[str]
    color: NotRequired[str]
    greeting: NotRequired[str]


class Session(TypedDict):
    id: str
    personaId: str
    title: str
    createdAt: str


class SessionPage(TypedDict):
    sessions: list[Session]
    #: Pass as ``cursor`` for the next (older) page; None on the last one.
    nextCursor: str | None


class MessageVersion(TypedDict):
    """Where a message stands among its versions: an edited message and the ones it replaced, or the regenerated
    answers to one question, oldest first. Show it as ``index + 1`` of ``count``; ``chat.messages.select_version``
    shows another one."""

    #: Its place among ``siblingIds``, from 0.
    index: int
    count: int
    #: Every version's id, oldest first, this message's included.
    siblingIds: list[str]


class Attachment(TypedDict):
    """An image or document uploaded with ``attachments.upload`` (Pro and Enterprise), as its owner sees it."""

    #: 22 URL-safe characters: pass it in ``attachment_ids`` of a message.
    id: str
    kind: AttachmentKind
    #: The file name it was uploaded with (a very long one is cut, keeping its extension).
    name: str
    #: What the bytes are, decided by the API from them (never from the declared type).
    mediaType: str
    #: In bytes.
    size: int
    createdAt: str
    #: Documents: the pages (PDF) or sections (DOCX, text) of the text read from it; 0 when it has none.
    pages: NotRequired[int]
    #: Documents: the characters of text read from it (0: none could be read, e.g. a scanned PDF).
    characters: NotRequired[int]
    #: Images: ``attachments.thumbnail`` gives a small preview.
    hasThumbnail: bool


class MessageAttachment(TypedDict):
    """An image or document as a message carries it (Pro and Enterprise)."""

    #: 22 URL-safe characters.
    id: str
    kind: AttachmentKind
    #: The file name it was uploaded with.
    name: str
    #: What the bytes are, decided by the API from them (never from the declared type).
    mediaType: str
    #: In bytes.
    size: int


class StoredMessage(TypedDict):
    id: str
    role: Literal["user", "assistant"]
    content: str
    timestamp: str
    type: Literal["text", "voice", "image"]
    status: MessageStatus
    provider: NotRequired[str]
    model: NotRequired[str]
    #: In a session's messages (``select_version``'s too), and on the answer of ``edit`` and ``regenerate``: its
    #: place among its versions.
    version: NotRequired[MessageVersion]
    #: The images and documents sent with a message of the caller's.
    attachments: NotRequired[list[MessageAttachment]]


class AssistantReply(StoredMessage):
    """The stored reply, with the id of the message it answers."""

    userMessageId: str


class SessionWithMessages(Session):
    messages: list[StoredMessage]
    nextCursor: str | None


class MessagePage(TypedDict):
    """One page of a session's messages, oldest first within the page; ``nextCursor`` leads to older ones."""

    messages: list[StoredMessage]
    nextCursor: str | None


class ConversationShare(TypedDict):
    """A conversation's read-only link: ``path`` (``/share/<token>``) on the site's origin."""

    #: 22 URL-safe characters: the link's only secret.
    token: str
    path: str
    sessionId: str
    #: Messages a reader sees: those written up to ``sharedAt`` (sharing again moves it to now).
    messageCount: int
    sharedAt: str


class Message(TypedDict):
    """A message as a shared conversation shows it: who wrote it, what, and when."""

    id: str
    role: Literal["user", "assistant"]
    content: str
    timestamp: str


class SharedPersona(TypedDict):
    id: str
    name: str
    avatar: NotRequired[str]
    color: NotRequired[str]


class SharedConversation(TypedDict):
    """What anyone with the link reads: the conversation as it was when last shared, nothing about its owner."""

    title: str
    persona: SharedPersona
    sharedAt: str
    messages: list[Message]
    #: True when older messages were left out (a shared page shows at most the latest 200).
    truncated: bool


class ToolCallFunction(TypedDict):
    name: str
    #: The arguments as the model wrote them: a JSON text.
    arguments: str


class ToolCall(TypedDict):
    """A call of a function tool that the model made, as an assistant message carries it."""

    id: str
    type: Literal["function"]
    function: ToolCallFunction


class ChatMessage(TypedDict):
    """A message of ``/v1/chat/completions`` (OpenAI's shape). ``content`` may be None or left out only on an
    assistant message with ``tool_calls``; a ``tool`` message holds a tool's result and names the call it answers in
    ``tool_call_id``."""

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: NotRequired[str | list[dict[str, Any]] | None]
    name: NotRequired[str]
    tool_calls: NotRequired[list[ToolCall]]
    tool_call_id: NotRequired[str]


class FunctionDefinition(TypedDict):
    #: 1 to 64 letters, digits, ``_`` or ``-``.
    name: str
    description: NotRequired[str | None]
    #: A JSON Schema object; left out, the function takes no arguments.
    parameters: NotRequired[dict[str, Any] | None]
    strict: NotRequired[bool | None]


class FunctionTool(TypedDict):
    """A function the model may call, for ``tools=[...]`` of ``completions.create`` and ``stream`` (passed as given,
    with ``tool_choice``, ``parallel_tool_calls`` and ``response_format``)."""

    type: Literal["function"]
    function: FunctionDefinition


class CompletionUsage(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


#: Why the model stopped: the end of its reply, the token limit, or calls of tools that the caller runs.
FinishReason = Literal["stop", "length", "tool_calls"]


class CompletionMessage(TypedDict):
    role: Literal["assistant"]
    #: The reply (with a JSON ``response_format``, checked JSON text); None when the model only called tools.
    content: str | None
    refusal: str | None
    tool_calls: NotRequired[list[ToolCall]]


class CompletionChoice(TypedDict):
    index: int
    message: CompletionMessage
    logprobs: None
    finish_reason: FinishReason


class ChatCompletion(TypedDict):
    """A complete answer of POST /v1/chat/completions."""

    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[CompletionChoice]
    usage: CompletionUsage
    system_fingerprint: NotRequired[str]


class ChunkToolCallFunction(TypedDict, total=False):
    name: str
    arguments: str


class ChunkToolCall(TypedDict):
    """A piece of a streamed tool call: the first has ``id``, ``type`` and ``function.name``; the ones after it carry
    pieces of ``function.arguments`` under the same ``index``."""

    index: int
    id: NotRequired[str]
    type: NotRequired[Literal["function"]]
    function: ChunkToolCallFunction


class ChunkDelta(TypedDict, total=False):
    role: Literal["assistant"]
    content: str
    tool_calls: list[ChunkToolCall]


class ChunkChoice(TypedDict):
    index: int
    delta: ChunkDelta
    logprobs: None
    finish_reason: FinishReason | None


class ChatCompletionChunk(TypedDict):
    """One chunk of a streamed completion. The last may carry only ``usage`` (and no choices)."""

    id: str
    object: Literal["chat.completion.chunk"]
    created: int
    model: str
    choices: list[ChunkChoice]
    usage: NotRequired[CompletionUsage]
    system_fingerprint: NotRequired[str]


class Model(TypedDict):
    id: str
    object: Literal["model"]
    created: int
    owned_by: str
    #: The persona's display name.
    name: str
    #: The persona's expertise.
    description: str


class ModelList(TypedDict):
    object: Literal["list"]
    data: list[Model]


class LanguageCapabilities(TypedDict):
    detect: bool
    chat: bool
    speak: bool
    listen: bool
    translate: bool


class LanguageSpeechEngine(TypedDict):
    #: The engine's id, as voices and syntheses name it (``khaya``, ``espeak-ng``...).
    engine: str
    #: Its name for people, e.g. ``eSpeak NG (offline)``.
    name: str
    #: Whether this server has it set up (a key, or the offline engine installed).
    configured: bool


class LanguageSpeech(TypedDict):
    """Which engine reads a language aloud here (None: not read aloud), and every engine with a voice for it, in
    Kasa's routing order."""

    engine: str | None
    engines: list[LanguageSpeechEngine]


class Language(TypedDict):
    code: str
    iso6391: str | None
    iso6393: str
    name: str
    nativeName: str
    capabilities: LanguageCapabilities
    speech: LanguageSpeech


class LanguageList(TypedDict):
    count: int
    languages: list[Language]


class LanguageGuess(TypedDict):
    language: str
    name: str
    confidence: float


class DetectedLanguage(LanguageGuess):
    reliable: bool
    """False when Kasa is not sure (a text too short or too mixed): ``language`` is then only a guess."""
    alternatives: list[LanguageGuess]


class DetectHints(TypedDict, total=False):
    #: The language the user chose in your app.
    userLanguage: str
    #: The browser's or system's locale, e.g. ``fr-CI``.
    browserLocale: str
    #: The user's latest messages, oldest first.
    recent: list[str]


class Voice(TypedDict):
    id: str
    name: str
    language: str
    locale: str
    engine: str
    gender: NotRequired[Literal["male", "female"]]


class Synthesis(TypedDict):
    """Where the stored audio of a synthesis is (no credential needed to fetch it; it expires)."""

    audioUrl: str
    duration: float
    id: NotRequired[str]
    contentType: NotRequired[str]
    language: NotRequired[str]
    voice: NotRequired[str]
    engine: NotRequired[str]


class GeoLookup(TypedDict):
    """Where an address appears to be; the place fields are None when ``found`` is false."""

    ip: str
    found: bool
    #: ISO 3166-1 alpha-2, e.g. ``GH``.
    country: str | None
    countryName: str | None
    region: str | None
    city: str | None
    #: IANA time zone, e.g. ``Africa/Accra``.
    timezone: str | None
    #: ISO 4217, e.g. ``GHS``.
    currency: str | None
    #: Language codes spoken there, most used first.
    suggestedLanguages: list[str]
    #: Why nothing was found, when ``found`` is false.
    message: NotRequired[str]


class ApiKey(TypedDict):
    """An API key as listed: masked, never the secret."""

    id: str
    name: str
    #: e.g. ``ksk_ab12…wxyz``: the first eight and the last four characters.
    maskedKey: str
    scopes: list[ApiKeyScope]
    createdAt: str
    expiresAt: str | None
    lastUsedAt: str | None
    revokedAt: str | None
    #: The team the key belongs to, or None for a personal key.
    teamId: str | None


class CreatedApiKey(TypedDict):
    """A new key. ``secret`` (``ksk_…``) is shown this once: store it now."""

    secret: str
    key: ApiKey
    message: str


class VideoJob(TypedDict):
    """A video being made from a prompt (Enterprise), or made: ``queued``, then ``running``, then ``succeeded``
    (with ``videoUrl`` and ``duration``) or ``failed`` (with ``error``)."""

    #: 22 URL-safe characters.
    id: str
    status: VideoJobStatus
    #: 0 to 100.
    progress: int
    prompt: str
    language: str
    voice: NotRequired[str]
    #: What makes the video: ``offline`` (speech and caption frames made on the server) or a hosted video model.
    renderer: str
    #: Captions drawn on the frames, or a subtitle track beside plain frames; set once rendering starts.
    captions: NotRequired[Literal["burned-in", "subtitle-track"]]
    #: Where to fetch the MP4 once the job succeeded (no credential needed: the address itself is the secret).
    videoUrl: NotRequired[str]
    #: Seconds of video, once the job succeeded.
    duration: NotRequired[float]
    #: Why the job failed, fit to show.
    error: NotRequired[str]
    createdAt: str
    updatedAt: str


class VideoJobEvent(VideoJob):
    """A video job as its event stream (``video.events``) sends it: the job, and while it is queued its place."""

    #: While queued: how many queued jobs were created before this one (0: it is next).
    queuePosition: NotRequired[int]
