package kasa

import "time"

// User is a Kasa account as GET /api/auth/me gives it.
type User struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Email    string `json:"email"`
	// SubscriptionTier is the plan: "free", "pro" or "enterprise".
	SubscriptionTier string    `json:"subscriptionTier"`
	CreatedAt        time.Time `json:"createdAt"`
}

// MeUser is the signed-in person as GET /api/auth/me shows them: the account, and whether they run this Kasa.
type MeUser struct {
	ID               string    `json:"id"`
	Username         string    `json:"username"`
	Email            string    `json:"email"`
	SubscriptionTier string    `json:"subscriptionTier"`
	CreatedAt        time.Time `json:"createdAt"`
	// Operator says whether the person is an operator of this Kasa (may open /admin), read afresh on every call.
	Operator bool `json:"operator"`
}

// AuthResponse is the answer of signing up or in; the client sends Token on later calls.
type AuthResponse struct {
	Success bool   `json:"success"`
	Token   string `json:"token"`
	User    User   `json:"user"`
	Message string `json:"message"`
}

// Persona is one of the assistants to chat with: Kasa's six (kasa, merla, ticha, massa, nana, dokta), then the
// caller's own custom ones.
type Persona struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Expertise    string `json:"expertise"`
	SystemPrompt string `json:"systemPrompt"`
	Avatar       string `json:"avatar,omitempty"`
	Color        string `json:"color,omitempty"`
	Greeting     string `json:"greeting,omitempty"`
}

// Session is a conversation with one persona. Only its owner sees it.
type Session struct {
	ID        string    `json:"id"`
	PersonaID string    `json:"personaId"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"createdAt"`
}

// SessionPage is one page of the caller's sessions, newest first.
type SessionPage struct {
	Sessions []Session `json:"sessions"`
	// NextCursor leads to the next (older) page: pass it as PageParams.Cursor. "" on the last page.
	NextCursor string `json:"nextCursor"`
}

// Message statuses (StoredMessage.Status).
const (
	StatusStreaming = "streaming"
	StatusComplete  = "complete"
	StatusStopped   = "stopped"
	StatusFailed    = "failed"
)

// StoredMessage is a message of a session as stored.
type StoredMessage struct {
	ID string `json:"id"`
	// Role is "user" or "assistant".
	Role      string    `json:"role"`
	Content   string    `json:"content"`
	Timestamp time.Time `json:"timestamp"`
	// Type is "text", "voice" or "image".
	Type string `json:"type"`
	// Status is how the reply ended: StatusComplete, StatusStopped, StatusFailed (StatusStreaming while written).
	Status   string `json:"status"`
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	// Version is set when the message has more than one version (an edited question, a regenerated reply).
	Version *MessageVersion `json:"version,omitempty"`
	// Attachments are the images and documents sent with a message of the caller's.
	Attachments []MessageAttachment `json:"attachments,omitempty"`
}

// Attachment is an image or document uploaded with Attachments.Upload, as its owner sees it.
type Attachment struct {
	// ID is 22 URL-safe characters: pass it in MessageParams.AttachmentIDs.
	ID string `json:"id"`
	// Kind is AttachmentImage or AttachmentDocument.
	Kind string `json:"kind"`
	// Name is the file name it was uploaded with (a very long one is cut, keeping its extension).
	Name string `json:"name"`
	// MediaType is what the bytes are, decided by the API from them (never from the declared type).
	MediaType string `json:"mediaType"`
	// Size is in bytes.
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"createdAt"`
	// Pages (documents) is how many pages (PDF) or sections (DOCX, text) the text read from it has; nil for images.
	Pages *int `json:"pages,omitempty"`
	// Characters (documents) is how many characters of text were read from it (0: none, e.g. a scanned PDF).
	Characters *int `json:"characters,omitempty"`
	// HasThumbnail (images) tells that Attachments.Thumbnail gives a small preview.
	HasThumbnail bool `json:"hasThumbnail"`
}

// AttachmentFile is a stored attachment's bytes, or its preview's.
type AttachmentFile struct {
	Data []byte
	// ContentType is the file's media type ("image/png", "application/pdf"...), without parameters.
	ContentType string
	// Name is the file name the answer gave ("" when it gave none).
	Name string
}

// Attachment kinds (MessageAttachment.Kind).
const (
	AttachmentImage    = "image"
	AttachmentDocument = "document"
)

// MessageAttachment is an image or document as a message carries it (Pro and Enterprise).
type MessageAttachment struct {
	// ID is 22 URL-safe characters.
	ID string `json:"id"`
	// Kind is AttachmentImage or AttachmentDocument.
	Kind string `json:"kind"`
	// Name is the file name it was uploaded with.
	Name string `json:"name"`
	// MediaType is what the bytes are, decided by the API from them (never from the declared type).
	MediaType string `json:"mediaType"`
	// Size is in bytes.
	Size int64 `json:"size"`
}

// MessageVersion is where a message stands among its versions.
type MessageVersion struct {
	// Index is its place among SiblingIDs, from 0.
	Index int `json:"index"`
	Count int `json:"count"`
	// SiblingIDs are every version's id, oldest first, this message's included.
	SiblingIDs []string `json:"siblingIds"`
}

// AssistantReply is a stored reply, with the id of the user message it answers.
type AssistantReply struct {
	StoredMessage
	UserMessageID string `json:"userMessageId"`
}

// SessionWithMessages is a session and one page of its messages, oldest first within the page.
type SessionWithMessages struct {
	Session
	Messages []StoredMessage `json:"messages"`
	// NextCursor leads to the page of older messages; "" when there are none.
	NextCursor string `json:"nextCursor"`
}

// MessagePage is one page of a session's messages, oldest first within the page.
type MessagePage struct {
	Messages []StoredMessage `json:"messages"`
	// NextCursor leads to the page of older messages; "" when there are none.
	NextCursor string `json:"nextCursor"`
}

// ConversationShare is a conversation's read-only link: Path ("/share/<token>") on the site's origin.
type ConversationShare struct {
	// Token is the link's only secret (22 URL-safe characters).
	Token     string `json:"token"`
	Path      string `json:"path"`
	SessionID string `json:"sessionId"`
	// MessageCount is the messages a reader sees: those written up to SharedAt (sharing again moves it to now).
	MessageCount int       `json:"messageCount"`
	SharedAt     time.Time `json:"sharedAt"`
}

// Message is a message as a shared conversation shows it: who wrote it, what, and when.
type Message struct {
	ID string `json:"id"`
	// Role is "user" or "assistant".
	Role      string    `json:"role"`
	Content   string    `json:"content"`
	Timestamp time.Time `json:"timestamp"`
}

// SharedPersona is the persona of a shared conversation.
type SharedPersona struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Avatar string `json:"avatar,omitempty"`
	Color  string `json:"color,omitempty"`
}

// SharedConversation is what anyone with the link reads: the conversation as it was when last shared, nothing
// about its owner.
type SharedConversation struct {
	Title    string        `json:"title"`
	Persona  SharedPersona `json:"persona"`
	SharedAt time.Time     `json:"sharedAt"`
	Messages []Message     `json:"messages"`
	// Truncated is true when older messages were left out (a shared page shows at most the latest 200).
	Truncated bool `json:"truncated"`
}

// ChatMessage is a message of /v1/chat/completions, in OpenAI's shape. Content is a string, or a list of content
// parts ([]map[string]any{{"type": "text", "text": "..."}}); it may be left nil only on an assistant message that
// carries ToolCalls.
type ChatMessage struct {
	// Role is "system", "developer", "user", "assistant" or "tool".
	Role    string `json:"role"`
	Content any    `json:"content,omitempty"`
	Name    string `json:"name,omitempty"`
	// ToolCalls are an assistant message's calls of tools, as an earlier answer returned them.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is what a "tool" message answers: the ID of a call in an earlier assistant message.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// UserMessage is a ChatMessage from the user.
func UserMessage(content string) ChatMessage { return ChatMessage{Role: "user", Content: content} }

// SystemMessage is a ChatMessage with instructions for the model.
func SystemMessage(content string) ChatMessage { return ChatMessage{Role: "system", Content: content} }

// AssistantMessage is a ChatMessage the model said earlier.
func AssistantMessage(content string) ChatMessage {
	return ChatMessage{Role: "assistant", Content: content}
}

// ToolMessage is the result of a tool the model called, answering the call with the ID toolCallID.
func ToolMessage(toolCallID, content string) ChatMessage {
	return ChatMessage{Role: "tool", Content: content, ToolCallID: toolCallID}
}

// ToolCall is a call of a function tool that the model made.
type ToolCall struct {
	ID string `json:"id"`
	// Type is "function".
	Type     string           `json:"type"`
	Function ToolCallFunction `json:"function"`
}

// ToolCallFunction is the function a ToolCall calls, with its arguments as the model wrote them: a JSON text.
type ToolCallFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is a function the model may call (CompletionParams.Tools); the caller runs it and sends the result back in a
// ToolMessage.
type Tool struct {
	// Type is "function".
	Type     string             `json:"type"`
	Function FunctionDefinition `json:"function"`
}

// FunctionDefinition describes a function tool: its name (1 to 64 letters, digits, _ or -), what it is for and its
// parameters as a JSON Schema object (nil: it takes none).
type FunctionDefinition struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Strict      *bool          `json:"strict,omitempty"`
}

// FunctionTool is a Tool of type "function".
func FunctionTool(name, description string, parameters map[string]any) Tool {
	return Tool{Type: "function", Function: FunctionDefinition{Name: name, Description: description, Parameters: parameters}}
}

// FunctionChoice is a CompletionParams.ToolChoice that makes the model call the named function.
func FunctionChoice(name string) any {
	return map[string]any{"type": "function", "function": map[string]string{"name": name}}
}

// ResponseFormat is the form of the reply: "text" (the default), "json_object" (any JSON object) or "json_schema"
// (JSON valid against JSONSchema). Kasa checks a JSON reply before it returns it; one that is not what was asked for
// is a 502 with the code invalid_model_output.
type ResponseFormat struct {
	Type       string            `json:"type"`
	JSONSchema *JSONSchemaFormat `json:"json_schema,omitempty"`
}

// JSONSchemaFormat names the JSON Schema a "json_schema" reply must satisfy.
type JSONSchemaFormat struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Schema      map[string]any `json:"schema,omitempty"`
	Strict      *bool          `json:"strict,omitempty"`
}

// CompletionUsage counts a completion's tokens.
type CompletionUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// CompletionMessage is the answer of a completion.
type CompletionMessage struct {
	Role string `json:"role"`
	// Content is the reply (with a JSON ResponseFormat, checked JSON text); empty when the model only called tools.
	Content string  `json:"content"`
	Refusal *string `json:"refusal"`
	// ToolCalls are the tools the model called (FinishReason "tool_calls"): run them and send their results back.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
}

// CompletionChoice is one choice of a completion (Kasa gives one).
type CompletionChoice struct {
	Index   int               `json:"index"`
	Message CompletionMessage `json:"message"`
	// FinishReason is "stop", "length" (the token limit) or "tool_calls".
	FinishReason string `json:"finish_reason"`
}

// ChatCompletion is the whole answer of POST /v1/chat/completions.
type ChatCompletion struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	Choices           []CompletionChoice `json:"choices"`
	Usage             CompletionUsage    `json:"usage"`
	SystemFingerprint string             `json:"system_fingerprint"`
}

// ChunkDelta is what a chunk adds to the answer.
type ChunkDelta struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content,omitempty"`
	// ToolCalls are pieces of the tools' calls: a call's first piece has its Index, ID, Type and Function.Name; the
	// pieces after it carry parts of Function.Arguments under the same Index.
	ToolCalls []ChunkToolCall `json:"tool_calls,omitempty"`
}

// ChunkToolCall is a piece of a streamed tool call.
type ChunkToolCall struct {
	Index    int                   `json:"index"`
	ID       string                `json:"id,omitempty"`
	Type     string                `json:"type,omitempty"`
	Function ChunkToolCallFunction `json:"function"`
}

// ChunkToolCallFunction is the function of a ChunkToolCall: its name (first piece), or a part of its arguments.
type ChunkToolCallFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// ChunkChoice is one choice of a chunk.
type ChunkChoice struct {
	Index int        `json:"index"`
	Delta ChunkDelta `json:"delta"`
	// FinishReason is set on a choice's last chunk ("stop", "length", "tool_calls"), nil before.
	FinishReason *string `json:"finish_reason"`
}

// ChatCompletionChunk is one chunk of a streamed completion. The last may carry only Usage (and no choices).
type ChatCompletionChunk struct {
	ID                string           `json:"id"`
	Object            string           `json:"object"`
	Created           int64            `json:"created"`
	Model             string           `json:"model"`
	Choices           []ChunkChoice    `json:"choices"`
	Usage             *CompletionUsage `json:"usage,omitempty"`
	SystemFingerprint string           `json:"system_fingerprint"`
}

// Model is a model of the OpenAI-compatible API: a persona.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
	// Name is the persona's display name.
	Name string `json:"name"`
	// Description is the persona's expertise.
	Description string `json:"description"`
}

// ModelList is the answer of GET /v1/models.
type ModelList struct {
	Object string  `json:"object"`
	Data   []Model `json:"data"`
}

// LanguageCapabilities says what Kasa can do in a language on the running platform.
type LanguageCapabilities struct {
	Detect    bool `json:"detect"`
	Chat      bool `json:"chat"`
	Speak     bool `json:"speak"`
	Listen    bool `json:"listen"`
	Translate bool `json:"translate"`
}

// Language is a language of the catalogue.
type Language struct {
	// Code is the code to use everywhere in Kasa: ISO 639-1 where one exists, else ISO 639-3 ("gaa").
	Code string `json:"code"`
	// ISO6391 is "" when the language has no two-letter code.
	ISO6391      string               `json:"iso6391"`
	ISO6393      string               `json:"iso6393"`
	Name         string               `json:"name"`
	NativeName   string               `json:"nativeName"`
	Capabilities LanguageCapabilities `json:"capabilities"`
	Speech       LanguageSpeech       `json:"speech"`
}

// LanguageSpeechEngine is an engine with a voice for a language.
type LanguageSpeechEngine struct {
	// Engine is its id, as voices and syntheses name it ("khaya", "espeak-ng"...).
	Engine string `json:"engine"`
	// Name is its name for people, e.g. "eSpeak NG (offline)".
	Name string `json:"name"`
	// Configured is true when this server has it set up (a key, or the offline engine installed).
	Configured bool `json:"configured"`
}

// LanguageSpeech is which engine reads a language aloud here, and every engine with a voice for it.
type LanguageSpeech struct {
	// Engine speaks the language on this server (the first configured one of Engines); "" when none does.
	Engine string `json:"engine"`
	// Engines are in Kasa's routing order (specialists first, the offline one last).
	Engines []LanguageSpeechEngine `json:"engines"`
}

// LanguageList is the answer of GET /api/languages.
type LanguageList struct {
	Count     int        `json:"count"`
	Languages []Language `json:"languages"`
}

// Language capabilities, to filter the catalogue with LanguagesService.List.
const (
	CapabilityDetect    = "detect"
	CapabilityChat      = "chat"
	CapabilitySpeak     = "speak"
	CapabilityListen    = "listen"
	CapabilityTranslate = "translate"
)

// LanguageGuess is a language a text may be in, with the detector's confidence (0 to 1).
type LanguageGuess struct {
	Language   string  `json:"language"`
	Name       string  `json:"name"`
	Confidence float64 `json:"confidence"`
}

// DetectedLanguage is the likeliest language of a text, and the alternatives.
type DetectedLanguage struct {
	LanguageGuess
	// Reliable is false when Kasa is not sure (a text too short or too mixed): Language is then only a guess.
	Reliable     bool            `json:"reliable"`
	Alternatives []LanguageGuess `json:"alternatives"`
}

// DetectHints help language detection with what the app knows.
type DetectHints struct {
	// UserLanguage is the language the user chose in your app.
	UserLanguage string `json:"userLanguage,omitempty"`
	// BrowserLocale is the browser's or system's locale, e.g. "fr-CI".
	BrowserLocale string `json:"browserLocale,omitempty"`
	// Recent holds the user's latest messages, oldest first (at most 10).
	Recent []string `json:"recent,omitempty"`
}

// Voice is a voice of an installed speech engine.
type Voice struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Language is the language code (as in the catalogue); Locale the locale the voice speaks.
	Language string `json:"language"`
	Locale   string `json:"locale"`
	Engine   string `json:"engine"`
	// Gender is "male", "female" or "".
	Gender string `json:"gender,omitempty"`
}

// Synthesis says where the stored audio of a synthesis is: AudioURL needs no credential to fetch, and expires.
type Synthesis struct {
	// AudioURL is relative to the API's address (or absolute, from a cloud store).
	AudioURL string `json:"audioUrl"`
	// Duration is the audio's length in seconds.
	Duration    float64 `json:"duration"`
	ID          string  `json:"id,omitempty"`
	ContentType string  `json:"contentType,omitempty"`
	Language    string  `json:"language,omitempty"`
	Voice       string  `json:"voice,omitempty"`
	Engine      string  `json:"engine,omitempty"`
}

// Audio is synthesized speech.
type Audio struct {
	// Data is the audio's bytes.
	Data []byte
	// ContentType is "audio/mpeg" (the platform's default), "audio/ogg" or "audio/wav".
	ContentType string
	// AudioURL is the address of the stored copy (no credential needed to fetch it; it expires); "" when the API
	// named none.
	AudioURL string
}

// GeoLookup says where an IP address appears to be; the place fields are "" when Found is false.
type GeoLookup struct {
	IP    string `json:"ip"`
	Found bool   `json:"found"`
	// Country is ISO 3166-1 alpha-2, e.g. "GH".
	Country     string `json:"country"`
	CountryName string `json:"countryName"`
	Region      string `json:"region"`
	City        string `json:"city"`
	// Timezone is an IANA time zone, e.g. "Africa/Accra".
	Timezone string `json:"timezone"`
	// Currency is ISO 4217, e.g. "GHS".
	Currency string `json:"currency"`
	// SuggestedLanguages are codes of the languages spoken there, most used first.
	SuggestedLanguages []string `json:"suggestedLanguages"`
	// Message says why nothing was found, when Found is false.
	Message string `json:"message,omitempty"`
}

// API key scopes: what a key may call.
const (
	// ScopeChat allows /api/personas, /api/chat/* and /v1/*.
	ScopeChat = "chat"
	// ScopeVoice allows /api/voice/*, /api/translate and /api/video/*.
	ScopeVoice = "voice"
	// ScopeAnalytics allows /api/developer/services/*, /api/developer/analytics and /api/analytics/*.
	ScopeAnalytics = "analytics"
)

// APIKey is an API key as listed: masked, never the secret.
type APIKey struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// MaskedKey is e.g. "ksk_ab12…wxyz": the first eight and the last four characters.
	MaskedKey string    `json:"maskedKey"`
	Scopes    []string  `json:"scopes"`
	CreatedAt time.Time `json:"createdAt"`
	// ExpiresAt is nil for a key that never expires.
	ExpiresAt *time.Time `json:"expiresAt"`
	// LastUsedAt is nil for a key never used (it is updated at most once a minute).
	LastUsedAt *time.Time `json:"lastUsedAt"`
	// RevokedAt is nil for a key that works.
	RevokedAt *time.Time `json:"revokedAt"`
	// TeamID is the team the key belongs to, "" for a personal key.
	TeamID string `json:"teamId"`
}

// CreatedAPIKey is a new key. Secret ("ksk_…") is shown this once: store it now.
type CreatedAPIKey struct {
	Secret  string `json:"secret"`
	Key     APIKey `json:"key"`
	Message string `json:"message"`
}

// QuotaUsage is the caller's plan quota for the current calendar month (UTC).
type QuotaUsage struct {
	// Period is the month, e.g. "2026-11".
	Period string `json:"period"`
	Used   int64  `json:"used"`
	// Limit is nil on unlimited plans.
	Limit *int64 `json:"limit"`
}

// AnalyticsUsage is the caller's calls: their share per API area and the monthly quota.
type AnalyticsUsage struct {
	// Breakdown maps an API area (chat, voice, auth, analytics...) to its percent of the caller's calls.
	Breakdown  map[string]float64 `json:"breakdown"`
	TotalCalls int64              `json:"totalCalls"`
	Quota      QuotaUsage         `json:"quota"`
}

// AnalyticsPerformance covers the caller's calls over the last 30 days.
type AnalyticsPerformance struct {
	// AverageResponseTime is the mean response time in milliseconds.
	AverageResponseTime float64 `json:"averageResponseTime"`
	// Uptime is in percent.
	Uptime float64 `json:"uptime"`
	// ErrorRate is the percent of calls answered with a 5xx.
	ErrorRate float64 `json:"errorRate"`
}

// Analytics is the caller's own figures (GET /api/developer/analytics).
type Analytics struct {
	Usage       AnalyticsUsage       `json:"usage"`
	Performance AnalyticsPerformance `json:"performance"`
	// PersonaUsage counts sessions per persona id.
	PersonaUsage map[string]int64 `json:"personaUsage"`
	// LanguageUsage counts user messages per language code.
	LanguageUsage map[string]int64 `json:"languageUsage"`
	Sessions      int64            `json:"sessions"`
	Messages      int64            `json:"messages"`
	// Voice counts speech read aloud and finished video jobs over the same 30 days.
	Voice AnalyticsVoice `json:"voice"`
}

// AnalyticsVoice is the caller's own voice activity: speech clips and their seconds, videos made and failed.
type AnalyticsVoice struct {
	SpeechClips   int64   `json:"speechClips"`
	SpeechSeconds float64 `json:"speechSeconds"`
	VideosMade    int64   `json:"videosMade"`
	VideosFailed  int64   `json:"videosFailed"`
}

// UsageDay is one UTC day of API calls.
type UsageDay struct {
	// Date is e.g. "2026-11-24".
	Date   string `json:"date"`
	Calls  int64  `json:"calls"`
	Errors int64  `json:"errors"`
}

// EndpointUsage counts the calls of one endpoint ("METHOD route", e.g. "GET chat").
type EndpointUsage struct {
	Endpoint string `json:"endpoint"`
	Calls    int64  `json:"calls"`
}

// StatusUsage counts the calls answered with one HTTP status.
type StatusUsage struct {
	Status int   `json:"status"`
	Calls  int64 `json:"calls"`
}

// KeyUsage counts the calls made with one API key; KeyID is "" for calls made with an access token.
type KeyUsage struct {
	KeyID string `json:"keyId"`
	Calls int64  `json:"calls"`
}

// Usage is the caller's API calls over a window of days (GET /api/analytics/usage).
type Usage struct {
	From       time.Time `json:"from"`
	To         time.Time `json:"to"`
	TotalCalls int64     `json:"totalCalls"`
	// Days has one entry per UTC day of the window, oldest first, days without calls included.
	Days []UsageDay `json:"days"`
	// ByEndpoint lists the most called endpoints first.
	ByEndpoint []EndpointUsage `json:"byEndpoint"`
	ByStatus   []StatusUsage   `json:"byStatus"`
	ByKey      []KeyUsage      `json:"byKey"`
}

// AnalyticsSession is one of the caller's chat sessions with its message count.
type AnalyticsSession struct {
	ID           string    `json:"id"`
	PersonaID    string    `json:"personaId"`
	Title        string    `json:"title"`
	CreatedAt    time.Time `json:"createdAt"`
	MessageCount int64     `json:"messageCount"`
	// LastMessageAt is nil for a session without messages.
	LastMessageAt *time.Time `json:"lastMessageAt"`
}

// Video job statuses (VideoJob.Status): queued, then running, then succeeded or failed.
const (
	VideoQueued    = "queued"
	VideoRunning   = "running"
	VideoSucceeded = "succeeded"
	VideoFailed    = "failed"
)

// VideoJob is a video being made from a prompt (Enterprise), or made.
type VideoJob struct {
	// ID is 22 URL-safe characters.
	ID string `json:"id"`
	// Status is VideoQueued, VideoRunning, VideoSucceeded or VideoFailed.
	Status string `json:"status"`
	// Progress is 0 to 100.
	Progress int    `json:"progress"`
	Prompt   string `json:"prompt"`
	Language string `json:"language"`
	Voice    string `json:"voice,omitempty"`
	// Renderer is what makes the video: "offline" (speech and caption frames made on the server) or a hosted model.
	Renderer string `json:"renderer"`
	// Captions is "burned-in" or "subtitle-track", once rendering started.
	Captions string `json:"captions,omitempty"`
	// VideoURL is where to fetch the MP4 once the job succeeded (no credential needed: the address is the secret).
	VideoURL string `json:"videoUrl,omitempty"`
	// Duration is the seconds of video, once the job succeeded.
	Duration float64 `json:"duration,omitempty"`
	// Error says why the job failed, fit to show.
	Error     string    `json:"error,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Finished reports whether the job has ended, either way (VideoSucceeded or VideoFailed).
func (j *VideoJob) Finished() bool { return j.Status == VideoSucceeded || j.Status == VideoFailed }

// VideoFile is a finished video.
type VideoFile struct {
	// Data is the MP4's bytes.
	Data []byte
	// ContentType is "video/mp4".
	ContentType string
}

// dataEnvelope is the {"data": ...} wrapper of the status service's answers.
type dataEnvelope[T any] struct {
	Data T `json:"data"`
}
