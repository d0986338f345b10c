package kasa

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const shareToken = "Tt_-0123456789abcdefgh"

var shareAnswer = map[string]any{
	"token": shareToken, "path": "/share/" + shareToken, "sessionId": "0123456789abcdef01234567",
	"messageCount": 2, "sharedAt": "2026-11-24T09:30:00.000Z",
}

var sharedAnswer = map[string]any{
	"title":    "Algebra",
	"persona":  map[string]any{"id": "ticha", "name": "Ticha", "color": "#0a7"},
	"sharedAt": "2026-11-24T09:30:00.000Z",
	"messages": []any{
		map[string]any{"id": "m1", "role": "user", "content": "What is 2 + 2?", "timestamp": "2026-11-24T09:29:00.000Z"},
		map[string]any{"id": "m2", "role": "assistant", "content": "4", "timestamp": "2026-11-24T09:29:01.000Z"},
	},
	"truncated": false,
}

func shareServer(t *testing.T) *localServer {
	t.Helper()
	server := newLocalServer(t)
	server.answer(func(r recorded) reply {
		switch {
		case strings.HasPrefix(r.path, "/api/chat/shared/"):
			return reply{body: sharedAnswer}
		case r.method == "DELETE":
			return reply{status: 204}
		case r.method == "POST":
			return reply{status: 201, body: shareAnswer}
		}
		return reply{body: shareAnswer}
	})
	return server
}

func TestTheOwnerSharesReadsTheLinkAndStopsSharingWithTheCredential(t *testing.T) {
	server := shareServer(t)
	sessions := testClient(server, WithToken("owner-token")).Chat.Sessions
	ctx := context.Background()
	link, err := sessions.Share(ctx, "../s 1")
	if err != nil {
		t.Fatal(err)
	}
	sharedAt := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	want := ConversationShare{Token: shareToken, Path: "/share/" + shareToken, SessionID: "0123456789abcdef01234567", MessageCount: 2, SharedAt: sharedAt}
	if !reflect.DeepEqual(*link, want) {
		t.Fatalf("link %+v", link)
	}
	if same, err := sessions.GetShare(ctx, "s1"); err != nil || same.Token != shareToken {
		t.Fatalf("%+v %v", same, err)
	}
	if err := sessions.StopSharing(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, r := range server.requests() {
		calls = append(calls, r.method+" "+r.path)
		if r.header.Get("Authorization") != "Bearer owner-token" {
			t.Fatalf("%s without the owner's token", r.path)
		}
	}
	wantCalls := []string{"POST /api/chat/sessions/..%2Fs%201/share", "GET /api/chat/sessions/s1/share", "DELETE /api/chat/sessions/s1/share"}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Fatalf("calls %q, want %q", calls, wantCalls)
	}
	// Sharing again creates nothing: it is retried without an Idempotency-Key.
	if key := server.requests()[0].header.Get("Idempotency-Key"); key != "" {
		t.Fatalf("Idempotency-Key %q", key)
	}
}

func TestReadsASharedConversationWithoutSendingTheCredential(t *testing.T) {
	server := shareServer(t)
	shared, err := testClient(server, WithAPIKey("ksk_secret")).Chat.Sessions.ReadShared(context.Background(), shareToken)
	if err != nil {
		t.Fatal(err)
	}
	if shared.Title != "Algebra" || shared.Persona.ID != "ticha" || shared.Persona.Color != "#0a7" || shared.Truncated || len(shared.Messages) != 2 {
		t.Fatalf("shared %+v", shared)
	}
	if m := shared.Messages[1]; m.ID != "m2" || m.Role != "assistant" || m.Content != "4" || m.Timestamp.IsZero() {
		t.Fatalf("message %+v", m)
	}
	if _, err := testClient(server).Chat.Sessions.ReadShared(context.Background(), "a/b?c"); err != nil {
		t.Fatal(err)
	}
	sent := server.requests()
	if sent[0].path != "/api/chat/shared/"+shareToken || sent[0].header.Get("Authorization") != "" {
		t.Fatalf("%s %v", sent[0].path, sent[0].header)
	}
	if sent[1].path != "/api/chat/shared/a%2Fb%3Fc" {
		t.Fatalf("path %s", sent[1].path)
	}
}

func TestSharingIsRetriedAfterA503AndAStoppedLinkIsNotFound(t *testing.T) {
	server := newLocalServer(t)
	server.script(
		reply{status: 503, body: map[string]string{"message": "Chat is unavailable", "code": "upstream_unavailable"}},
		reply{body: shareAnswer},
		reply{status: 404, body: map[string]string{"message": "This shared conversation does not exist, or its owner stopped sharing it", "code": "not_found"}},
	)
	client := testClient(server, WithToken("t"))
	if _, err := client.Chat.Sessions.Share(context.Background(), "s1"); err != nil {
		t.Fatal(err)
	}
	_, err := client.Chat.Sessions.ReadShared(context.Background(), shareToken)
	if gone := new(NotFoundError); !errors.As(err, &gone) || gone.Code != "not_found" {
		t.Fatalf("err = %v", err)
	}
	if n := len(server.requests()); n != 3 {
		t.Fatalf("%d requests", n)
	}
}
