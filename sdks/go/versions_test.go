package kasa

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// Versions of messages: an edited message of the caller's, a regenerated answer, and showing another version.

const (
	questionID = "0123456789abcdef0000000a"
	answerID   = "0123456789abcdef0000000b"
)

// versionedReply is the stored reply to an edited question (or a regenerated answer), the second of two versions.
var versionedReply = map[string]any{
	"id": "a2", "role": "assistant", "content": "Four.", "timestamp": "2026-11-24T09:30:01.000Z",
	"type": "text", "status": "complete", "provider": "fake", "model": "m", "userMessageId": "u2",
	"version": map[string]any{"index": 1, "count": 2, "siblingIds": []string{"a1", "a2"}},
}

var wantVersion = &MessageVersion{Index: 1, Count: 2, SiblingIDs: []string{"a1", "a2"}}

func TestEditSendsTheNewTextToTheMessagesEditRouteAndGivesTheReply(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: versionedReply})
	got, err := testClient(server, WithToken("t")).Chat.Messages.Edit(context.Background(), "../s 1", questionID,
		EditParams{Content: "What is 2 + 2, really?", Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "a2" || got.UserMessageID != "u2" || got.Content != "Four." || got.Status != StatusComplete || !reflect.DeepEqual(got.Version, wantVersion) {
		t.Fatalf("reply %+v (version %+v)", got, got.Version)
	}
	sent := server.requests()[0]
	if sent.method != "POST" || sent.path != "/api/chat/sessions/..%2Fs%201/messages/"+questionID+"/edit" {
		t.Errorf("sent %s %s", sent.method, sent.path)
	}
	if body := sent.json(t); !reflect.DeepEqual(body, map[string]any{"role": "user", "content": "What is 2 + 2, really?", "language": "en"}) {
		t.Errorf("body = %v", body)
	}
	if sent.header.Get("Accept") != "application/json" || sent.header.Get("Authorization") != "Bearer t" {
		t.Errorf("Accept %q, Authorization %q", sent.header.Get("Accept"), sent.header.Get("Authorization"))
	}
	// An edit creates a message and a reply: it carries an Idempotency-Key, like Send.
	if sent.header.Get("Idempotency-Key") == "" {
		t.Error("no Idempotency-Key")
	}
}

func TestEditIsRetriedWithTheSameIdempotencyKeyAndSendsTheCallersAttachments(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(nil), reply{status: 201, body: versionedReply})
	_, err := testClient(server, WithToken("t")).Chat.Messages.Edit(context.Background(), "s1", questionID,
		EditParams{Content: "Without the photo", AttachmentIDs: []string{}, IdempotencyKey: "edit-1"})
	if err != nil {
		t.Fatal(err)
	}
	requests := server.requests()
	if len(requests) != 2 {
		t.Fatalf("%d requests", len(requests))
	}
	for _, r := range requests {
		if key := r.header.Get("Idempotency-Key"); key != "edit-1" {
			t.Errorf("Idempotency-Key %q", key)
		}
	}
	// An empty list drops the edited message's attachments (nil keeps them, and sends nothing).
	if ids, sent := requests[1].json(t)["attachmentIds"]; !sent || !reflect.DeepEqual(ids, []any{}) {
		t.Errorf("attachmentIds %v (sent: %v)", ids, sent)
	}
}

func TestEditStreamStreamsTheReplyLikeStream(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(sse("done", versionedReply))})
	stream, err := streamClient(server).Chat.Messages.EditStream(context.Background(), streamSession, questionID,
		EditParams{Content: "Hello again", Resumable: true})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	events := readAllEvents(t, stream)
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(events) != 4 {
		t.Fatalf("%d events: %#v", len(events), events)
	}
	if meta, ok := events[0].(*MetaEvent); !ok || meta.AssistantMessageID != "a1" {
		t.Errorf("first event %#v", events[0])
	}
	if tokens := []string{events[1].(*TokenEvent).Text, events[2].(*TokenEvent).Text}; tokens[0] != "Akwaaba, " || tokens[1] != "Ama!" {
		t.Errorf("tokens %q", tokens)
	}
	if done, ok := events[3].(*DoneEvent); !ok || done.Message.ID != "a2" || !reflect.DeepEqual(done.Message.Version, wantVersion) {
		t.Errorf("last event %#v", events[3])
	}
	sent := server.requests()[0]
	if sent.method != "POST" || sent.path != "/api/chat/sessions/"+streamSession+"/messages/"+questionID+"/edit" {
		t.Errorf("sent %s %s", sent.method, sent.path)
	}
	if got := sent.header.Get("Accept"); got != "text/event-stream" {
		t.Errorf("Accept = %q", got)
	}
	if body := sent.json(t); !reflect.DeepEqual(body, map[string]any{"role": "user", "content": "Hello again", "resumable": true}) {
		t.Errorf("body = %v", body)
	}
	if sent.header.Get("Idempotency-Key") == "" {
		t.Error("no Idempotency-Key")
	}
}

func TestRegenerateAsksTheAnswersRouteForANewVersion(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: versionedReply})
	messages := testClient(server, WithToken("t")).Chat.Messages
	ctx := context.Background()
	got, err := messages.Regenerate(ctx, "s1", answerID, RegenerateParams{})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "a2" || got.UserMessageID != "u2" || !reflect.DeepEqual(got.Version, wantVersion) {
		t.Fatalf("reply %+v", got)
	}
	// Resumable is for streams only: the whole reply is waited for anyway.
	if _, err := messages.Regenerate(ctx, "s1", answerID, RegenerateParams{Language: "tw", Resumable: true}); err != nil {
		t.Fatal(err)
	}
	requests := server.requests()
	for _, r := range requests {
		if r.method != "POST" || r.path != "/api/chat/sessions/s1/messages/"+answerID+"/regenerate" {
			t.Errorf("sent %s %s", r.method, r.path)
		}
		if r.header.Get("Accept") != "application/json" || r.header.Get("Idempotency-Key") == "" {
			t.Errorf("Accept %q, Idempotency-Key %q", r.header.Get("Accept"), r.header.Get("Idempotency-Key"))
		}
	}
	if body := requests[0].json(t); len(body) != 0 {
		t.Errorf("first body = %v", body)
	}
	if body := requests[1].json(t); !reflect.DeepEqual(body, map[string]any{"language": "tw"}) {
		t.Errorf("second body = %v", body)
	}
	if requests[0].header.Get("Idempotency-Key") == requests[1].header.Get("Idempotency-Key") {
		t.Error("two regenerations shared a key")
	}
}

func TestRegenerateStreamStreamsTheNewAnswer(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(sse("done", versionedReply))})
	stream, err := streamClient(server).Chat.Messages.RegenerateStream(context.Background(), streamSession, answerID,
		RegenerateParams{Language: "fr", Resumable: true, IdempotencyKey: "regen-1"})
	if err != nil {
		t.Fatal(err)
	}
	final, err := stream.FinalMessage()
	if err != nil || final.ID != "a2" || !reflect.DeepEqual(final.Version, wantVersion) {
		t.Fatalf("%v %+v", err, final)
	}
	if stream.AssistantMessageID() != "a1" {
		t.Errorf("message id %q", stream.AssistantMessageID())
	}
	sent := server.requests()[0]
	if sent.method != "POST" || sent.path != "/api/chat/sessions/"+streamSession+"/messages/"+answerID+"/regenerate" {
		t.Errorf("sent %s %s", sent.method, sent.path)
	}
	if sent.header.Get("Accept") != "text/event-stream" || sent.header.Get("Idempotency-Key") != "regen-1" {
		t.Errorf("Accept %q, Idempotency-Key %q", sent.header.Get("Accept"), sent.header.Get("Idempotency-Key"))
	}
	if body := sent.json(t); !reflect.DeepEqual(body, map[string]any{"language": "fr", "resumable": true}) {
		t.Errorf("body = %v", body)
	}
}

// wrongRole is the API's answer to editing an answer, or regenerating a message of the caller's.
func wrongRole(message, detail string) reply {
	return reply{status: 400, body: map[string]any{
		"message": message, "code": "validation_failed", "requestId": "req-role",
		"details": []map[string]string{{"path": "messageId", "message": detail}},
	}}
}

func TestEditingAnAnswerOrRegeneratingAQuestionIsABadRequest(t *testing.T) {
	server := newLocalServer(t)
	messages := streamClient(server).Chat.Messages
	ctx := context.Background()
	cannotEdit := wrongRole("Only your own messages can be edited, and this one is an answer: regenerate it for another version.", "an answer cannot be edited")
	cannotRegenerate := wrongRole("Only an answer can be regenerated, and this one is your message: edit it for another version.", "a message of yours cannot be regenerated")
	calls := []struct {
		name   string
		answer reply
		call   func() error
	}{
		{"Edit", cannotEdit, func() error {
			_, err := messages.Edit(ctx, "s1", answerID, EditParams{Content: "New text"})
			return err
		}},
		{"EditStream", cannotEdit, func() error {
			_, err := messages.EditStream(ctx, "s1", answerID, EditParams{Content: "New text"})
			return err
		}},
		{"Regenerate", cannotRegenerate, func() error {
			_, err := messages.Regenerate(ctx, "s1", questionID, RegenerateParams{})
			return err
		}},
		{"RegenerateStream", cannotRegenerate, func() error {
			_, err := messages.RegenerateStream(ctx, "s1", questionID, RegenerateParams{})
			return err
		}},
	}
	for _, c := range calls {
		server.script(c.answer)
		err := c.call()
		var bad *BadRequestError
		if !errors.As(err, &bad) || !errors.Is(err, ErrBadRequest) {
			t.Fatalf("%s: %T %v", c.name, err, err)
		}
		if bad.Status != 400 || bad.Code != "validation_failed" || bad.RequestID != "req-role" || bad.Message != c.answer.body.(map[string]any)["message"] {
			t.Errorf("%s: %+v", c.name, bad.APIError)
		}
		if fields := bad.FieldErrors(); len(fields) != 1 || fields[0].Path != "messageId" {
			t.Errorf("%s: field errors %v", c.name, fields)
		}
	}
	if n := len(server.requests()); n != len(calls) {
		t.Fatalf("%d requests: a 400 was retried", n)
	}
}

func TestSelectVersionShowsAVersionAndGivesTheBranchThroughIt(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: map[string]any{
		"id": "s1", "personaId": "ticha", "title": "Algebra", "createdAt": "2026-11-24T09:00:00.000Z",
		"messages": []any{
			map[string]any{"id": "u1", "role": "user", "content": "What is 2 + 2?", "timestamp": "2026-11-24T09:29:00.000Z",
				"type": "text", "status": "complete", "version": map[string]any{"index": 0, "count": 2, "siblingIds": []string{"u1", "u2"}}},
			map[string]any{"id": "a1", "role": "assistant", "content": "4", "timestamp": "2026-11-24T09:29:01.000Z",
				"type": "text", "status": "complete"},
		},
		"nextCursor": nil,
	}})
	messages := testClient(server, WithToken("t")).Chat.Messages
	ctx := context.Background()
	shown, err := messages.SelectVersion(ctx, "s1", "u1", 5)
	if err != nil {
		t.Fatal(err)
	}
	if shown.ID != "s1" || shown.Title != "Algebra" || len(shown.Messages) != 2 || shown.NextCursor != "" {
		t.Fatalf("shown %+v", shown)
	}
	if v := shown.Messages[0].Version; !reflect.DeepEqual(v, &MessageVersion{Index: 0, Count: 2, SiblingIDs: []string{"u1", "u2"}}) {
		t.Errorf("version %+v", v)
	}
	if shown.Messages[1].Version != nil {
		t.Errorf("a version out of nothing: %+v", shown.Messages[1].Version)
	}
	if _, err := messages.SelectVersion(ctx, "s1", "../u 2", 0); err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, r := range server.requests() {
		calls = append(calls, r.method+" "+r.path)
		if len(r.body) != 0 {
			t.Errorf("%s sent a body: %q", r.path, r.body)
		}
		// Showing a version creates nothing: it is safe to repeat without an Idempotency-Key.
		if key := r.header.Get("Idempotency-Key"); key != "" {
			t.Errorf("Idempotency-Key %q", key)
		}
	}
	want := []string{"POST /api/chat/sessions/s1/messages/u1/select?limit=5", "POST /api/chat/sessions/s1/messages/..%2Fu%202/select"}
	if !reflect.DeepEqual(calls, want) {
		t.Fatalf("calls %q, want %q", calls, want)
	}
}

func TestSelectVersionIsRetriedAndAnUnknownMessageIsNotFound(t *testing.T) {
	server := newLocalServer(t)
	server.script(unavailable(nil), reply{status: 404, body: map[string]any{"message": "Message not found", "code": "not_found", "requestId": "r404"}})
	_, err := testClient(server, WithToken("t")).Chat.Messages.SelectVersion(context.Background(), "s1", "m1", 0)
	var notFound *NotFoundError
	if !errors.As(err, &notFound) || notFound.Message != "Message not found" || notFound.RequestID != "r404" {
		t.Fatalf("%T %v", err, err)
	}
	if n := len(server.requests()); n != 2 {
		t.Fatalf("%d requests", n)
	}
}
