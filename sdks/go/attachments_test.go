package kasa

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const attachmentID = "AAAAAAAAAAAAAAAAAAAAAA"

var attachmentAnswer = map[string]any{
	"id": attachmentID, "kind": "document", "name": "notes.md", "mediaType": "text/markdown", "size": 7,
	"createdAt": "2026-11-24T09:30:00.000Z", "pages": 1, "characters": 7, "hasThumbnail": false,
}

func TestUploadsTheBytesAsTheBodyWithTheNameAndReadsTheAttachment(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 503, header: map[string]string{"Retry-After": "0"}}, reply{status: 201, body: attachmentAnswer})
	data := []byte("# Notes")
	got, err := testClient(server, WithToken("t")).Attachments.Upload(context.Background(), data,
		AttachmentUploadParams{Name: "my notes.md", ContentType: "text/markdown"})
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	seven := 7
	want := Attachment{
		ID: attachmentID, Kind: AttachmentDocument, Name: "notes.md", MediaType: "text/markdown", Size: 7,
		CreatedAt: time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC), Pages: &one, Characters: &seven,
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("attachment %+v", got)
	}
	requests := server.requests()
	if len(requests) != 2 {
		t.Fatalf("%d requests, want a retry after the 503", len(requests))
	}
	for _, r := range requests {
		if r.method != "POST" || r.path != "/api/chat/attachments?name=my+notes.md" {
			t.Errorf("%s %s", r.method, r.path)
		}
		if !bytes.Equal(r.body, data) || r.header.Get("Content-Type") != "text/markdown" {
			t.Errorf("body %q as %q", r.body, r.header.Get("Content-Type"))
		}
	}
	if key := requests[0].header.Get("Idempotency-Key"); key == "" || key != requests[1].header.Get("Idempotency-Key") {
		t.Errorf("Idempotency-Key %q then %q", key, requests[1].header.Get("Idempotency-Key"))
	}
}

func TestUploadSendsBytesAsOctetStreamAndNeedsAName(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: attachmentAnswer})
	attachments := testClient(server).Attachments
	if _, err := attachments.Upload(context.Background(), []byte{1}, AttachmentUploadParams{Name: " "}); err == nil {
		t.Fatal("an upload without a name was sent")
	}
	if len(server.requests()) != 0 {
		t.Fatal("a request was sent")
	}
	if _, err := attachments.Upload(context.Background(), []byte{0x89, 'P'}, AttachmentUploadParams{Name: "a.png"}); err != nil {
		t.Fatal(err)
	}
	if got := server.requests()[0].header.Get("Content-Type"); got != "application/octet-stream" {
		t.Fatalf("Content-Type %q", got)
	}
}

func TestAttachmentRefusalsMatchTheirKinds(t *testing.T) {
	cases := []struct {
		status   int
		code     string
		sentinel error
	}{
		{403, "forbidden", ErrPermissionDenied},
		{409, "conflict", ErrConflict},
		{413, "payload_too_large", ErrPayloadTooLarge},
		{415, "unsupported_media_type", ErrUnsupportedMediaType},
	}
	for _, c := range cases {
		server := newLocalServer(t)
		server.script(
			reply{status: c.status, body: map[string]any{"message": "refused", "code": c.code, "details": map[string]string{"plan": "pro"}}},
			reply{status: c.status, header: map[string]string{"Content-Type": "text/html"}, body: "<h1>No</h1>"},
		)
		attachments := testClient(server, WithMaxRetries(0)).Attachments
		for i := 0; i < 2; i++ {
			_, err := attachments.Upload(context.Background(), []byte{1}, AttachmentUploadParams{Name: "a.png"})
			var apiErr *APIError
			if !errors.Is(err, c.sentinel) || !errors.As(err, &apiErr) || apiErr.Code != c.code {
				t.Errorf("%d (answer %d): %v", c.status, i, err)
			}
		}
	}
}

func TestReadsAFileAndItsThumbnailAndDeletesOne(t *testing.T) {
	server := newLocalServer(t)
	server.answer(func(r recorded) reply {
		switch {
		case r.method == "DELETE":
			return reply{status: 204}
		case strings.HasSuffix(r.path, "/thumbnail"):
			return reply{header: map[string]string{"Content-Type": "image/webp", "Content-Disposition": `inline; filename="kente.png.webp"`}, body: []byte("RIFF")}
		}
		return reply{header: map[string]string{
			"Content-Type":        "text/plain; charset=utf-8",
			"Content-Disposition": `attachment; filename="_ntoa.txt"; filename*=UTF-8''%C9%94ntoa.txt`,
		}, body: []byte("Bonwire")}
	})
	attachments := testClient(server, WithToken("t")).Attachments
	ctx := context.Background()
	file, err := attachments.Get(ctx, "id/with?odd")
	if err != nil {
		t.Fatal(err)
	}
	if want := (AttachmentFile{Data: []byte("Bonwire"), ContentType: "text/plain", Name: "ɔntoa.txt"}); !reflect.DeepEqual(*file, want) {
		t.Errorf("file %+v", file)
	}
	preview, err := attachments.Thumbnail(ctx, attachmentID)
	if err != nil {
		t.Fatal(err)
	}
	if want := (AttachmentFile{Data: []byte("RIFF"), ContentType: "image/webp", Name: "kente.png.webp"}); !reflect.DeepEqual(*preview, want) {
		t.Errorf("preview %+v", preview)
	}
	if err := attachments.Delete(ctx, attachmentID); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, r := range server.requests() {
		seen = append(seen, r.method+" "+r.path)
	}
	want := []string{
		"GET /api/chat/attachments/id%2Fwith%3Fodd",
		"GET /api/chat/attachments/" + attachmentID + "/thumbnail",
		"DELETE /api/chat/attachments/" + attachmentID,
	}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("requests %v", seen)
	}
}

func TestSendsAttachmentIDsWithAMessageOnlyWhenGiven(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: map[string]any{
		"id": "a1", "role": "assistant", "content": "A kente cloth.", "timestamp": "2026-11-24T09:30:01.000Z",
		"type": "text", "status": "complete", "userMessageId": "u1",
		"attachments": []any{map[string]any{"id": attachmentID, "kind": "image", "name": "k.png", "mediaType": "image/png", "size": 4}},
	}})
	messages := testClient(server, WithToken("t")).Chat.Messages
	ctx := context.Background()
	got, err := messages.Send(ctx, "s1", MessageParams{Content: "What is this?", AttachmentIDs: []string{attachmentID}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []MessageAttachment{{ID: attachmentID, Kind: AttachmentImage, Name: "k.png", MediaType: "image/png", Size: 4}}; !reflect.DeepEqual(got.Attachments, want) {
		t.Errorf("attachments %+v", got.Attachments)
	}
	if _, err := messages.Send(ctx, "s1", MessageParams{Content: "Hello"}); err != nil {
		t.Fatal(err)
	}
	requests := server.requests()
	if ids := requests[0].json(t)["attachmentIds"]; !reflect.DeepEqual(ids, []any{attachmentID}) {
		t.Errorf("attachmentIds %v", ids)
	}
	if _, sent := requests[1].json(t)["attachmentIds"]; sent {
		t.Error("attachmentIds sent without any")
	}
}
