package kasa

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// ChatService holds Kasa's chat: sessions with a persona, and their messages.
type ChatService struct {
	// Sessions creates, lists, reads, renames and deletes chat sessions.
	Sessions *SessionsService
	// Messages lists, sends (whole or streamed), follows again and stops the messages of a session, and keeps their
	// versions: edits a message, regenerates an answer, shows another version.
	Messages *MessagesService
}

// SessionsService manages chat sessions (conversations with one persona). Only their owner sees them: anyone
// else gets a *NotFoundError.
type SessionsService struct{ client *Client }

// PageParams choose a page of a cursor-paged list.
type PageParams struct {
	// Limit is the page's size, 1 to 50 (0: the API's default, 20).
	Limit int
	// Cursor is the NextCursor of the previous page ("": the first, newest page).
	Cursor string
}

func (p PageParams) query() url.Values {
	query := url.Values{}
	if p.Limit > 0 {
		query.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.Cursor != "" {
		query.Set("cursor", p.Cursor)
	}
	return query
}

// SessionCreateParams describe a new session.
type SessionCreateParams struct {
	// PersonaID is the persona to chat with ("kasa", "nana", ...); an unknown one is a *BadRequestError.
	PersonaID string `json:"personaId"`
	Title     string `json:"title"`
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string `json:"-"`
}

func sessionPath(sessionID string) string { return "/api/chat/sessions/" + escape(sessionID) }

func messagePath(sessionID, messageID string) string {
	return sessionPath(sessionID) + "/messages/" + escape(messageID)
}

// Create starts a session (POST /api/chat/sessions).
func (s *SessionsService) Create(ctx context.Context, params SessionCreateParams) (*Session, error) {
	var out Session
	req := &request{method: http.MethodPost, path: "/api/chat/sessions", body: params, creates: true, idempotencyKey: params.IdempotencyKey}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// List gives one page of the caller's sessions, newest first (GET /api/chat/sessions).
func (s *SessionsService) List(ctx context.Context, page PageParams) (*SessionPage, error) {
	var out SessionPage
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/chat/sessions", query: page.query()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get gives a session and a page of its messages, the newest page first (GET /api/chat/sessions/:id).
func (s *SessionsService) Get(ctx context.Context, sessionID string, page PageParams) (*SessionWithMessages, error) {
	var out SessionWithMessages
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: sessionPath(sessionID), query: page.query()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Rename sets a session's title (PATCH /api/chat/sessions/:id).
func (s *SessionsService) Rename(ctx context.Context, sessionID, title string) (*Session, error) {
	var out Session
	body := map[string]string{"title": title}
	// Setting the same title twice is the same as once.
	req := &request{method: http.MethodPatch, path: sessionPath(sessionID), body: body, idempotent: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Delete removes a session and its messages (DELETE /api/chat/sessions/:id).
func (s *SessionsService) Delete(ctx context.Context, sessionID string) error {
	return s.client.call(ctx, &request{method: http.MethodDelete, path: sessionPath(sessionID)}, nil)
}

// MessagesService lists, sends, streams, follows again and stops the messages of a session, and keeps their versions:
// Edit gives one of the caller's messages a new text and Regenerate an answer a new reply, each stored as a new
// version (StoredMessage.Version) next to the old ones, which SelectVersion shows again.
type MessagesService struct{ client *Client }

// Message types (MessageParams.Type).
const (
	MessageTypeText  = "text"
	MessageTypeVoice = "voice"
	MessageTypeImage = "image"
)

// MessageParams describe a user message.
type MessageParams struct {
	// Content is the message's text (required, up to 16,000 characters).
	Content string
	// Type is MessageTypeText (the default), MessageTypeVoice or MessageTypeImage.
	Type string
	// Language is the user's language as a BCP 47 tag ("tw", "fr-CI"), or "auto" (the default: detected).
	Language string
	// Resumable (streams only) keeps the reply being written when the connection drops: Resume follows it
	// again, and only Stop stops it. Otherwise hanging up is the stop.
	Resumable bool
	// AttachmentIDs are up to 4 ids of images and documents from Attachments.Upload (Pro and Enterprise), none sent
	// in another session (a *ConflictError otherwise). nil sends none.
	AttachmentIDs []string
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string
}

func (p MessageParams) request(sessionID string, stream bool) *request {
	return p.post(sessionPath(sessionID)+"/messages", stream)
}

// post is the request that sends the message to path (a session's messages, or a message's edit).
func (p MessageParams) post(path string, stream bool) *request {
	body := map[string]any{"role": "user", "content": p.Content}
	if p.Type != "" {
		body["type"] = p.Type
	}
	if p.Language != "" {
		body["language"] = p.Language
	}
	if p.AttachmentIDs != nil {
		body["attachmentIds"] = p.AttachmentIDs
	}
	accept := "application/json"
	if stream {
		accept = "text/event-stream"
		if p.Resumable {
			body["resumable"] = true
		}
	}
	return &request{
		method:         http.MethodPost,
		path:           path,
		body:           body,
		accept:         accept,
		creates:        true,
		idempotencyKey: p.IdempotencyKey,
	}
}

// EditParams describe the new text of one of the caller's messages: the same as a message's (Content is required;
// Type, Language, Resumable and IdempotencyKey as for Send and Stream). AttachmentIDs left nil keeps the edited
// message's attachments with the new version; an empty slice drops them.
type EditParams = MessageParams

// RegenerateParams describe a new answer to the same question (all optional).
type RegenerateParams struct {
	// Language is the reply's language as a BCP 47 tag ("tw", "fr-CI"), or "auto" ("": the question's own).
	Language string
	// Resumable (streams only) keeps the reply being written when the connection drops, as MessageParams.Resumable.
	Resumable bool
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string
}

func (p RegenerateParams) request(sessionID, messageID string, stream bool) *request {
	body := map[string]any{}
	if p.Language != "" {
		body["language"] = p.Language
	}
	accept := "application/json"
	if stream {
		accept = "text/event-stream"
		if p.Resumable {
			body["resumable"] = true
		}
	}
	return &request{
		method:         http.MethodPost,
		path:           messagePath(sessionID, messageID) + "/regenerate",
		body:           body,
		accept:         accept,
		creates:        true,
		idempotencyKey: p.IdempotencyKey,
	}
}

// List gives one page of a session's messages, the newest page first, oldest first within it (GET
// /api/chat/sessions/:id).
func (s *MessagesService) List(ctx context.Context, sessionID string, page PageParams) (*MessagePage, error) {
	var out MessagePage
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: sessionPath(sessionID), query: page.query()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Send sends a message and gives the stored reply once it is complete (POST /api/chat/sessions/:id/messages).
func (s *MessagesService) Send(ctx context.Context, sessionID string, params MessageParams) (*AssistantReply, error) {
	var out AssistantReply
	if err := s.client.call(ctx, params.request(sessionID, false), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Stream sends a message and gives its reply as it is written (POST /api/chat/sessions/:id/messages with Accept:
// text/event-stream). It returns once the reply has started: a 400, 401, 403, 404 or 429 is returned here; then
// read the stream, and Close it. ctx covers the whole stream: ending it hangs up.
func (s *MessagesService) Stream(ctx context.Context, sessionID string, params MessageParams) (*ReplyStream, error) {
	return s.open(ctx, sessionID, params.request(sessionID, true))
}

// Edit gives one of the caller's messages a new text and gives the reply to it once it is complete (POST
// /api/chat/sessions/:id/messages/:messageId/edit). The new text is a new version of that message, in its place
// (stored with the reply's UserMessageID as its id, and a Version): the conversation goes on from it, and the old
// version and what followed it are kept for SelectVersion. Editing an answer is a *BadRequestError.
func (s *MessagesService) Edit(ctx context.Context, sessionID, messageID string, params EditParams) (*AssistantReply, error) {
	var out AssistantReply
	if err := s.client.call(ctx, params.post(messagePath(sessionID, messageID)+"/edit", false), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// EditStream is Edit with the reply given as it is written, like Stream's (POST
// /api/chat/sessions/:id/messages/:messageId/edit with Accept: text/event-stream). It returns once the reply has
// started: a 400 (an answer cannot be edited), 401, 403, 404 or 429 is returned here; then read the stream, and
// Close it.
func (s *MessagesService) EditStream(ctx context.Context, sessionID, messageID string, params EditParams) (*ReplyStream, error) {
	return s.open(ctx, sessionID, params.post(messagePath(sessionID, messageID)+"/edit", true))
}

// Regenerate writes a new answer to the question an answer answered and gives it once it is complete (POST
// /api/chat/sessions/:id/messages/:messageId/regenerate), with its Version (e.g. Index 1 of Count 2): the earlier
// answers are kept as its other versions. Regenerating a message of the caller's is a *BadRequestError.
func (s *MessagesService) Regenerate(ctx context.Context, sessionID, messageID string, params RegenerateParams) (*AssistantReply, error) {
	var out AssistantReply
	if err := s.client.call(ctx, params.request(sessionID, messageID, false), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// RegenerateStream is Regenerate with the reply given as it is written, like Stream's (POST
// /api/chat/sessions/:id/messages/:messageId/regenerate with Accept: text/event-stream). It returns once the reply
// has started: a 400 (only an answer can be regenerated), 401, 403, 404 or 429 is returned here; then read the
// stream, and Close it.
func (s *MessagesService) RegenerateStream(ctx context.Context, sessionID, messageID string, params RegenerateParams) (*ReplyStream, error) {
	return s.open(ctx, sessionID, params.request(sessionID, messageID, true))
}

// SelectVersion shows a version of a message (any id of its Version.SiblingIDs): the conversation continues from
// it, along the branch below it that was last shown, for every later read and reply (POST
// /api/chat/sessions/:id/messages/:messageId/select). It gives the session with the newest page of that branch,
// limit messages (1 to 50; 0: the API's default, 20), as Sessions.Get does.
func (s *MessagesService) SelectVersion(ctx context.Context, sessionID, messageID string, limit int) (*SessionWithMessages, error) {
	var out SessionWithMessages
	query := PageParams{Limit: limit}.query()
	// Showing the same version twice is the same as once: safe to repeat.
	req := &request{method: http.MethodPost, path: messagePath(sessionID, messageID) + "/select", query: query, idempotent: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Resume follows a reply being written, after a dropped connection or from another process (GET
// /api/chat/sessions/:id/messages/:messageId/stream): its MetaEvent, the text so far as one TokenEvent, then the
// rest as it is written, then the DoneEvent.
func (s *MessagesService) Resume(ctx context.Context, sessionID, messageID string) (*ReplyStream, error) {
	req := &request{method: http.MethodGet, path: messagePath(sessionID, messageID) + "/stream", accept: "text/event-stream"}
	return s.open(ctx, sessionID, req)
}

func (s *MessagesService) open(ctx context.Context, sessionID string, req *request) (*ReplyStream, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	resp, err := s.client.send(ctx, req)
	if err != nil {
		return nil, err
	}
	body := newStreamBody(ctx, resp, s.client.cfg.baseURL, s.client.cfg.maxEventBytes)
	stop := func(ctx context.Context, messageID string) (*StoredMessage, error) {
		return s.Stop(ctx, sessionID, messageID)
	}
	return newReplyStream(body, stop), nil
}

// Stop stops a reply being written, a resumable one too, and gives it as stored: what was written is kept, with
// StatusStopped (POST /api/chat/sessions/:id/messages/:messageId/stop).
func (s *MessagesService) Stop(ctx context.Context, sessionID, messageID string) (*StoredMessage, error) {
	var out StoredMessage
	// Stopping a stopped reply changes nothing: safe to repeat.
	req := &request{method: http.MethodPost, path: messagePath(sessionID, messageID) + "/stop", idempotent: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
