package kasa

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// ReplyEvent is an event of a streamed reply: *MetaEvent, *TokenEvent or *DoneEvent. Tell them apart with a type
// switch.
type ReplyEvent interface {
	replyEvent()
}

// MetaEvent says a provider starts answering (again, with Continued true, when another one took over mid-reply).
type MetaEvent struct {
	UserMessageID      string `json:"userMessageId"`
	AssistantMessageID string `json:"assistantMessageId"`
	Provider           string `json:"provider"`
	Model              string `json:"model"`
	Continued          bool   `json:"continued"`
}

// TokenEvent is the next piece of the reply's text.
type TokenEvent struct {
	Text string `json:"text"`
}

// DoneEvent is the reply as stored: Message.Status is StatusComplete, or StatusStopped when it was stopped.
type DoneEvent struct {
	Message AssistantReply
}

func (*MetaEvent) replyEvent()  {}
func (*TokenEvent) replyEvent() {}
func (*DoneEvent) replyEvent()  {}

// streamBody is what both kinds of stream share: the connection, its events, and whether it has ended or been
// closed.
type streamBody struct {
	ctx       context.Context
	body      io.ReadCloser
	events    *SSEReader
	requestID string
	baseURL   string
	closed    atomic.Bool
	closeOnce sync.Once
}

func newStreamBody(ctx context.Context, resp *http.Response, baseURL string, maxEventBytes int) *streamBody {
	return &streamBody{
		ctx:       ctx,
		body:      resp.Body,
		events:    NewSSEReader(resp.Body, maxEventBytes),
		requestID: resp.Header.Get("X-Request-Id"),
		baseURL:   baseURL,
	}
}

// close hangs up (once); reads in progress end quietly.
func (s *streamBody) close() {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		_ = s.body.Close()
	})
}

// next is the next Server-Sent Event; io.EOF when the caller closed the stream, an error (a StreamError for a
// stream that ended before its closing event) otherwise.
func (s *streamBody) next() (ServerSentEvent, error) {
	event, err := s.events.Next()
	if err == nil {
		return event, nil
	}
	if s.closed.Load() {
		return ServerSentEvent{}, io.EOF
	}
	if s.ctx.Err() != nil {
		return ServerSentEvent{}, s.ctx.Err()
	}
	var connErr *ConnectionError
	if errors.As(err, &connErr) {
		if connErr.RequestID == "" {
			connErr.RequestID = s.requestID
		}
		return ServerSentEvent{}, connErr
	}
	if err == io.EOF {
		return ServerSentEvent{}, newConnectionError(CodeStreamError, "The connection closed before the stream was complete.", s.requestID, nil)
	}
	return ServerSentEvent{}, newConnectionError(CodeStreamError, fmt.Sprintf("The stream broke off: %v", err), s.requestID, err)
}

// streamFailure is the error an error event (or an OpenAI error chunk) stands for: the same failure the
// non-streamed call answers with a 503.
func streamFailure(message, requestID string) error {
	if message == "" {
		message = "The reply failed."
	}
	return &ServerError{&APIError{Status: 503, Code: CodeUpstreamUnavailable, Message: message, RequestID: requestID}}
}

func decodeFailure(event string, err error, requestID string) error {
	return newConnectionError(CodeStreamError, fmt.Sprintf("The stream sent a %s event that is not valid JSON: %v", event, err), requestID, err)
}

// ReplyStream is a streamed reply of the chat service. Read it like a bufio.Scanner: Next, then Event, until Next
// gives false; then Err says why it ended (nil at the end, or after Close). The events are a *MetaEvent, each
// *TokenEvent in order, then a *DoneEvent with the stored reply. Always Close it (defer stream.Close()): for a reply
// that is not resumable, hanging up is the stop.
//
//	stream, err := client.Chat.Messages.Stream(ctx, sessionID, kasa.MessageParams{Content: "Akwaaba!"})
//	if err != nil {
//		return err
//	}
//	defer stream.Close()
//	for stream.Next() {
//		if token, ok := stream.Event().(*kasa.TokenEvent); ok {
//			fmt.Print(token.Text)
//		}
//	}
//	return stream.Err()
//
// Next and Event belong to one goroutine; Stop, Close, AssistantMessageID and RequestID may be called from any.
type ReplyStream struct {
	body *streamBody
	stop func(ctx context.Context, messageID string) (*StoredMessage, error)

	// read is held while the connection is read (Next, or Stop reading ahead to the reply's id).
	read    sync.Mutex
	pending []ReplyEvent
	current ReplyEvent
	ended   bool

	state    sync.Mutex
	err      error
	meta     *MetaEvent
	metaSeen chan struct{}
	finished chan struct{}
	finish   sync.Once
}

func newReplyStream(body *streamBody, stop func(context.Context, string) (*StoredMessage, error)) *ReplyStream {
	return &ReplyStream{body: body, stop: stop, metaSeen: make(chan struct{}), finished: make(chan struct{})}
}

// RequestID is the id the API gave the request (x-request-id), to quote when asking for support.
func (s *ReplyStream) RequestID() string { return s.body.requestID }

// AssistantMessageID is the id of the reply being written, once its first event has been read ("" before).
func (s *ReplyStream) AssistantMessageID() string {
	s.state.Lock()
	defer s.state.Unlock()
	if s.meta == nil {
		return ""
	}
	return s.meta.AssistantMessageID
}

// Next reads the next event; false when the stream has ended (see Err) or was closed.
func (s *ReplyStream) Next() bool {
	s.read.Lock()
	defer s.read.Unlock()
	if len(s.pending) > 0 {
		s.current, s.pending = s.pending[0], s.pending[1:]
		return true
	}
	event, err := s.pull()
	if event == nil {
		s.current = nil
		s.end(err)
		return false
	}
	s.current = event
	return true
}

// Event is the event the last Next read.
func (s *ReplyStream) Event() ReplyEvent { return s.current }

// Err is why the stream ended: nil when it ended with its DoneEvent or was closed; a *ServerError (503,
// upstream_unavailable) when no AI provider could finish the reply; a *ConnectionError (ErrStream, ErrTimeout)
// when the connection broke off; the context's error when the context ended.
func (s *ReplyStream) Err() error {
	s.state.Lock()
	defer s.state.Unlock()
	return s.err
}

// Close hangs up and releases the connection. For a reply that is not resumable, that stops it on the server (it
// is stored as stopped). Closing again does nothing.
func (s *ReplyStream) Close() error {
	s.body.close()
	s.end(nil)
	return nil
}

// end records why the stream ended (once) and releases the connection.
func (s *ReplyStream) end(err error) {
	s.finish.Do(func() {
		s.state.Lock()
		s.err = err
		s.state.Unlock()
		s.body.close()
		close(s.finished)
	})
}

// pull reads the next event from the connection; nil at the end (with the error, if any). Called with read held.
func (s *ReplyStream) pull() (ReplyEvent, error) {
	for !s.ended {
		raw, err := s.body.next()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		event, end, err := decodeReplyEvent(raw, s.body.requestID)
		if err != nil {
			return nil, err
		}
		if end {
			s.ended = true
		}
		if event == nil {
			continue
		}
		if meta, ok := event.(*MetaEvent); ok {
			s.state.Lock()
			if s.meta == nil {
				s.meta = meta
				close(s.metaSeen)
			}
			s.state.Unlock()
		}
		return event, nil
	}
	return nil, nil
}

// decodeReplyEvent is the reply event of a Server-Sent Event of the chat service (nil for an unknown event); end is
// true for the closing event; an error event is returned as an error.
func decodeReplyEvent(raw ServerSentEvent, requestID string) (ReplyEvent, bool, error) {
	switch raw.Event {
	case "meta":
		var meta MetaEvent
		if err := json.Unmarshal([]byte(raw.Data), &meta); err != nil {
			return nil, false, decodeFailure("meta", err, requestID)
		}
		return &meta, false, nil
	case "token":
		var token TokenEvent
		if err := json.Unmarshal([]byte(raw.Data), &token); err != nil {
			return nil, false, decodeFailure("token", err, requestID)
		}
		return &token, false, nil
	case "done":
		var done DoneEvent
		if err := json.Unmarshal([]byte(raw.Data), &done.Message); err != nil {
			return nil, false, decodeFailure("done", err, requestID)
		}
		return &done, true, nil
	case "error":
		var failure struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal([]byte(raw.Data), &failure)
		return nil, false, streamFailure(failure.Message, requestID)
	}
	return nil, false, nil
}

// Stop asks the server to stop writing the reply, whichever connection is following it, and gives the reply as
// stored so far. Keep reading: the stream then ends with a DoneEvent whose message has StatusStopped. Called
// before the reply's first event, it waits for it (reading ahead when no other goroutine is reading; the events
// read ahead are still given by Next, in order).
func (s *ReplyStream) Stop(ctx context.Context) (*StoredMessage, error) {
	id, err := s.waitForID(ctx)
	if err != nil {
		return nil, err
	}
	return s.stop(ctx, id)
}

func (s *ReplyStream) waitForID(ctx context.Context) (string, error) {
	for {
		if id := s.AssistantMessageID(); id != "" {
			return id, nil
		}
		if s.read.TryLock() {
			var failure error
			for s.AssistantMessageID() == "" {
				event, err := s.pull()
				if event == nil {
					failure = err
					s.end(err)
					break
				}
				s.pending = append(s.pending, event)
			}
			s.read.Unlock()
			if id := s.AssistantMessageID(); id != "" {
				return id, nil
			}
			if failure != nil {
				return "", failure
			}
			return "", newConnectionError(CodeStreamError, "The reply ended before it named its id.", s.body.requestID, nil)
		}
		// Another goroutine is in Next: its first event names the id, or the stream ends.
		select {
		case <-s.metaSeen:
		case <-s.finished:
			if id := s.AssistantMessageID(); id != "" {
				return id, nil
			}
			if err := s.Err(); err != nil {
				return "", err
			}
			return "", newConnectionError(CodeStreamError, "The reply ended before it named its id.", s.body.requestID, nil)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// FinalMessage reads the rest of the stream and gives the stored reply.
func (s *ReplyStream) FinalMessage() (*AssistantReply, error) {
	defer s.Close()
	for s.Next() {
		if done, ok := s.Event().(*DoneEvent); ok {
			return &done.Message, nil
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return nil, newConnectionError(CodeStreamError, "The reply ended without a final message.", s.body.requestID, nil)
}

// CompletionStream is a streamed completion of the OpenAI-compatible API: Next, then Chunk, until Next gives
// false; then Err says why it ended (nil at the end, or after Close). Always Close it (defer stream.Close()).
//
//	for stream.Next() {
//		if chunk := stream.Chunk(); len(chunk.Choices) > 0 {
//			fmt.Print(chunk.Choices[0].Delta.Content)
//		}
//	}
type CompletionStream struct {
	body    *streamBody
	current *ChatCompletionChunk
	ended   bool

	state  sync.Mutex
	err    error
	finish sync.Once
}

// RequestID is the id the API gave the request (x-request-id), to quote when asking for support.
func (s *CompletionStream) RequestID() string { return s.body.requestID }

// Next reads the next chunk; false when the stream has ended (see Err) or was closed.
func (s *CompletionStream) Next() bool {
	for !s.ended {
		raw, err := s.body.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.end(err)
			return false
		}
		if raw.Data == "[DONE]" {
			s.ended = true
			break
		}
		var chunk ChatCompletionChunk
		var failure struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(raw.Data), &failure); err != nil {
			s.end(decodeFailure("chunk", err, s.body.requestID))
			return false
		}
		if failure.Error != nil {
			message := failure.Error.Message
			if message == "" {
				message = "The completion failed."
			}
			s.end(streamFailure(message, s.body.requestID))
			return false
		}
		if err := json.Unmarshal([]byte(raw.Data), &chunk); err != nil {
			s.end(decodeFailure("chunk", err, s.body.requestID))
			return false
		}
		s.current = &chunk
		return true
	}
	s.current = nil
	s.end(nil)
	return false
}

// Chunk is the chunk the last Next read.
func (s *CompletionStream) Chunk() *ChatCompletionChunk { return s.current }

// Err is why the stream ended: nil at its end or after Close; a *ServerError (503) when the completion failed
// mid-stream; a *ConnectionError (ErrStream, ErrTimeout) when the connection broke off.
func (s *CompletionStream) Err() error {
	s.state.Lock()
	defer s.state.Unlock()
	return s.err
}

// Close hangs up and releases the connection; closing again does nothing.
func (s *CompletionStream) Close() error {
	s.body.close()
	s.end(nil)
	return nil
}

func (s *CompletionStream) end(err error) {
	s.finish.Do(func() {
		s.state.Lock()
		s.err = err
		s.state.Unlock()
		s.body.close()
	})
}
