package kasa

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const streamSession = "0123456789abcdef01234567"

var sseHeader = map[string]string{"Content-Type": "text/event-stream; charset=utf-8", "X-Request-Id": "req-stream"}

var metaData = map[string]any{"userMessageId": "u1", "assistantMessageId": "a1", "provider": "fake", "model": "m", "continued": false}

func doneData(status, content string) map[string]any {
	return map[string]any{
		"id": "a1", "role": "assistant", "content": content, "timestamp": "2026-11-24T00:00:00.000Z",
		"type": "text", "status": status, "userMessageId": "u1",
	}
}

func sse(name string, data any) string {
	encoded, _ := json.Marshal(data)
	return fmt.Sprintf("event: %s\ndata: %s\n\n", name, encoded)
}

// replyChunks are a reply's events: meta, a keep-alive, two tokens, then extra.
func replyChunks(extra ...any) []any {
	chunks := []any{sse("meta", metaData), ": ping\n\n", sse("token", map[string]string{"text": "Akwaaba, "}), sse("token", map[string]string{"text": "Ama!"})}
	return append(chunks, extra...)
}

func streamClient(s *localServer, opts ...Option) *Client {
	return testClient(s, append([]Option{WithToken("tok"), WithMaxRetries(0)}, opts...)...)
}

func readAllEvents(t *testing.T, stream *ReplyStream) []ReplyEvent {
	t.Helper()
	var events []ReplyEvent
	for stream.Next() {
		events = append(events, stream.Event())
	}
	return events
}

func TestStreamGivesMetaThenTokensInOrderThenTheStoredReply(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(sse("done", doneData("complete", "Akwaaba, Ama!")))})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hello", Language: "tw"})
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
	if meta, ok := events[0].(*MetaEvent); !ok || *meta != (MetaEvent{"u1", "a1", "fake", "m", false}) {
		t.Errorf("first event %#v", events[0])
	}
	if a, b := events[1].(*TokenEvent), events[2].(*TokenEvent); a.Text != "Akwaaba, " || b.Text != "Ama!" {
		t.Errorf("tokens %q %q", a.Text, b.Text)
	}
	done := events[3].(*DoneEvent)
	if done.Message.ID != "a1" || done.Message.Status != StatusComplete || done.Message.Content != "Akwaaba, Ama!" || done.Message.UserMessageID != "u1" {
		t.Errorf("done %+v", done.Message)
	}
	sent := server.requests()[0]
	if sent.method != "POST" || sent.path != "/api/chat/sessions/"+streamSession+"/messages" {
		t.Errorf("sent %s %s", sent.method, sent.path)
	}
	if got := sent.header.Get("Accept"); got != "text/event-stream" {
		t.Errorf("Accept = %q", got)
	}
	if body := sent.json(t); !reflect.DeepEqual(body, map[string]any{"role": "user", "content": "Hello", "language": "tw"}) {
		t.Errorf("body = %v", body)
	}
	if stream.RequestID() != "req-stream" || stream.AssistantMessageID() != "a1" {
		t.Errorf("request id %q, message id %q", stream.RequestID(), stream.AssistantMessageID())
	}
}

func TestFinalMessageReadsToTheEnd(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(sse("done", doneData("complete", "Akwaaba, Ama!")))})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	final, err := stream.FinalMessage()
	if err != nil || final.Content != "Akwaaba, Ama!" {
		t.Fatalf("%v %+v", err, final)
	}
}

func TestAnErrorEventEndsTheStreamWithAServiceUnavailableError(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(sse("error", map[string]string{"message": "No AI provider could answer."}))})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	if events := readAllEvents(t, stream); len(events) != 3 {
		t.Fatalf("%d events before the error", len(events))
	}
	err = stream.Err()
	var serverErr *ServerError
	if !errors.As(err, &serverErr) || !errors.Is(err, ErrServiceUnavailable) {
		t.Fatalf("%T %v", err, err)
	}
	if serverErr.Status != 503 || serverErr.Message != "No AI provider could answer." || serverErr.RequestID != "req-stream" || serverErr.Code != CodeUpstreamUnavailable {
		t.Fatalf("%+v", serverErr.APIError)
	}
}

func TestADroppedConnectionMidReplyIsAStreamError(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(), drop: true})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	readAllEvents(t, stream)
	var connErr *ConnectionError
	if err := stream.Err(); !errors.As(err, &connErr) || connErr.Code != CodeStreamError || connErr.Status != 0 || !errors.Is(err, ErrStream) {
		t.Fatalf("%T %v", err, err)
	}
	if connErr.RequestID != "req-stream" {
		t.Fatalf("request id %q", connErr.RequestID)
	}
}

func TestABodyThatEndsWithoutTheClosingEventIsAStreamError(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks()})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.FinalMessage(); !errors.Is(err, ErrStream) {
		t.Fatalf("%v", err)
	}
}

func TestErrorsBeforeTheStreamStartsAreReturnedByStream(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 404, body: map[string]string{"message": "Session not found", "code": "not_found", "requestId": "r404"}})
	_, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hello"})
	var notFound *NotFoundError
	if !errors.As(err, &notFound) || notFound.RequestID != "r404" {
		t.Fatalf("%T %v", err, err)
	}
}

func TestHangsUpWhenTheReaderClosesTheStreamEarly(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, endless: 10 * time.Millisecond})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Go on"})
	if err != nil {
		t.Fatal(err)
	}
	if !stream.Next() {
		t.Fatal(stream.Err())
	}
	stream.Close()
	if !server.waitForClientGone(5 * time.Second) {
		t.Fatal("the server kept writing to a reader that had left")
	}
	if stream.Next() || stream.Err() != nil {
		t.Fatalf("the closed stream went on (err %v)", stream.Err())
	}
}

func TestCloseFromAnotherGoroutineEndsAReadInProgressQuietly(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: []any{sse("meta", metaData), 10 * time.Second}})
	stream, err := streamClient(server).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Go on"})
	if err != nil {
		t.Fatal(err)
	}
	if !stream.Next() {
		t.Fatal(stream.Err())
	}
	time.AfterFunc(100*time.Millisecond, func() { stream.Close() })
	started := time.Now()
	if stream.Next() {
		t.Fatal("an event after the close")
	}
	if stream.Err() != nil || time.Since(started) > 5*time.Second {
		t.Fatalf("err %v after %v", stream.Err(), time.Since(started))
	}
}

func TestEndingTheContextHangsUp(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, endless: 10 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := streamClient(server).Chat.Messages.Stream(ctx, streamSession, MessageParams{Content: "Go on"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	stream.Next()
	cancel()
	for stream.Next() {
	}
	if !errors.Is(stream.Err(), context.Canceled) {
		t.Fatalf("err = %v", stream.Err())
	}
	if !server.waitForClientGone(5 * time.Second) {
		t.Fatal("the server kept writing")
	}
}

func TestAStreamThatFallsSilentBeyondTheTimeoutIsATimeout(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: []any{sse("meta", metaData), sse("token", map[string]string{"text": "a"}), 3 * time.Second}})
	stream, err := streamClient(server, WithTimeout(300*time.Millisecond)).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	if events := readAllEvents(t, stream); len(events) != 2 {
		t.Fatalf("%d events", len(events))
	}
	if err := stream.Err(); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
}

func TestAStreamSlowerThanTheTimeoutInTotalButNotBetweenEventsGoesOn(t *testing.T) {
	server := newLocalServer(t)
	chunks := []any{sse("meta", metaData)}
	for i := 0; i < 6; i++ {
		chunks = append(chunks, 150*time.Millisecond, sse("token", map[string]string{"text": "x"}))
	}
	chunks = append(chunks, sse("done", doneData("complete", "xxxxxx")))
	server.script(reply{header: sseHeader, chunks: chunks})
	// 900 ms in all, never more than 150 ms without a word.
	stream, err := streamClient(server, WithTimeout(500*time.Millisecond)).Chat.Messages.Stream(context.Background(), streamSession, MessageParams{Content: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	if final, err := stream.FinalMessage(); err != nil || final.Content != "xxxxxx" {
		t.Fatalf("%v %+v", err, final)
	}
}

func TestStopReadsAheadToTheReplyIDAndAsksTheServerToStop(t *testing.T) {
	server := newLocalServer(t)
	stopped := doneData("stopped", "Akwaaba, ")
	server.answer(func(r recorded) reply {
		if strings.HasSuffix(r.path, "/stop") {
			return reply{status: 202, body: stopped}
		}
		return reply{header: sseHeader, chunks: replyChunks(sse("done", stopped))}
	})
	ctx := context.Background()
	stream, err := streamClient(server).Chat.Messages.Stream(ctx, streamSession, MessageParams{Content: "Hello", Resumable: true})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	message, err := stream.Stop(ctx)
	if err != nil || message.Status != StatusStopped || message.ID != "a1" {
		t.Fatalf("%v %+v", err, message)
	}
	events := readAllEvents(t, stream)
	if stream.Err() != nil {
		t.Fatal(stream.Err())
	}
	requests := server.requests()
	if requests[0].json(t)["resumable"] != true {
		t.Error("resumable was not sent")
	}
	if requests[1].method != "POST" || requests[1].path != "/api/chat/sessions/"+streamSession+"/messages/a1/stop" {
		t.Errorf("stop sent as %s %s", requests[1].method, requests[1].path)
	}
	// The events read ahead to learn the id are still handed out, in order.
	if len(events) != 4 {
		t.Fatalf("%d events", len(events))
	}
	if _, ok := events[0].(*MetaEvent); !ok {
		t.Errorf("first event %#v", events[0])
	}
	if done, ok := events[3].(*DoneEvent); !ok || done.Message.Status != StatusStopped {
		t.Errorf("last event %#v", events[3])
	}
}

func TestStopFromAnotherGoroutineWhileTheReaderWaits(t *testing.T) {
	server := newLocalServer(t)
	stopped := doneData("stopped", "w1 ")
	server.answer(func(r recorded) reply {
		if strings.HasSuffix(r.path, "/stop") {
			return reply{status: 202, body: stopped}
		}
		return reply{header: sseHeader, chunks: []any{200 * time.Millisecond, sse("meta", metaData), sse("token", map[string]string{"text": "w1 "}), 500 * time.Millisecond, sse("done", stopped)}}
	})
	ctx := context.Background()
	stream, err := streamClient(server).Chat.Messages.Stream(ctx, streamSession, MessageParams{Content: "Go on"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var events []ReplyEvent
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		events = readAllEvents(t, stream)
	}()
	time.Sleep(50 * time.Millisecond) // the reader is waiting for the first event
	message, err := stream.Stop(ctx)
	if err != nil || message.Status != StatusStopped {
		t.Fatalf("%v %+v", err, message)
	}
	wg.Wait()
	if len(events) != 3 || stream.Err() != nil {
		t.Fatalf("%d events, err %v", len(events), stream.Err())
	}
}

func TestResumeFollowsAReplyByItsID(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: replyChunks(sse("done", doneData("complete", "Akwaaba, Ama!")))})
	stream, err := streamClient(server).Chat.Messages.Resume(context.Background(), streamSession, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if final, err := stream.FinalMessage(); err != nil || final.ID != "a1" {
		t.Fatalf("%v %+v", err, final)
	}
	follow := server.requests()[0]
	if follow.method != "GET" || follow.path != "/api/chat/sessions/"+streamSession+"/messages/a1/stream" {
		t.Fatalf("followed with %s %s", follow.method, follow.path)
	}
}

func chunk(content *string) string {
	delta := map[string]any{}
	if content != nil {
		delta["content"] = *content
	}
	body := map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "kasa",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": nil}}}
	encoded, _ := json.Marshal(body)
	return "data: " + string(encoded) + "\n\n"
}

func text(s string) *string { return &s }

func TestStreamsCompletionChunksUntilDone(t *testing.T) {
	server := newLocalServer(t)
	usage := `data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"kasa","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":3,"total_tokens":6}}` + "\n\n"
	server.script(reply{header: sseHeader, chunks: []any{chunk(text("Me ")), chunk(text("din ")), chunk(text("Ama")), chunk(nil), usage, "data: [DONE]\n\n"}})
	stream, err := streamClient(server).Completions.Stream(context.Background(), CompletionParams{
		Model: "kasa", Messages: []ChatMessage{UserMessage("Hi")}, IncludeUsage: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var content strings.Builder
	var counted *CompletionUsage
	for stream.Next() {
		c := stream.Chunk()
		if len(c.Choices) > 0 {
			content.WriteString(c.Choices[0].Delta.Content)
		}
		if c.Usage != nil {
			counted = c.Usage
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if content.String() != "Me din Ama" || counted == nil || counted.TotalTokens != 6 {
		t.Fatalf("%q %+v", content.String(), counted)
	}
	want := map[string]any{
		"model": "kasa", "messages": []any{map[string]any{"role": "user", "content": "Hi"}}, "stream": true,
		"stream_options": map[string]any{"include_usage": true},
	}
	if body := server.requests()[0].json(t); !reflect.DeepEqual(body, want) {
		t.Fatalf("body = %v", body)
	}
}

func TestACompletionErrorChunkEndsTheStreamWithAServiceUnavailableError(t *testing.T) {
	server := newLocalServer(t)
	failed := `data: {"error": {"message": "No AI provider could answer.", "type": "api_error"}}` + "\n\n"
	server.script(reply{header: sseHeader, chunks: []any{chunk(text("Me ")), failed}})
	stream, err := streamClient(server).Completions.Stream(context.Background(), CompletionParams{Model: "kasa", Messages: []ChatMessage{UserMessage("Hi")}})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	for stream.Next() {
	}
	if err := stream.Err(); !errors.Is(err, ErrServiceUnavailable) || !strings.Contains(err.Error(), "No AI provider") {
		t.Fatalf("%v", err)
	}
}

func TestACompletionStreamWithoutDoneIsAStreamError(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: sseHeader, chunks: []any{chunk(text("Me "))}})
	stream, err := streamClient(server).Completions.Stream(context.Background(), CompletionParams{Model: "kasa", Messages: []ChatMessage{UserMessage("Hi")}})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	for stream.Next() {
	}
	if err := stream.Err(); !errors.Is(err, ErrStream) {
		t.Fatalf("%v", err)
	}
}

func TestCreateSendsTheCompletionsParameters(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: map[string]any{"id": "c", "object": "chat.completion", "created": 1, "model": "merla",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "Me din de Ama", "refusal": nil}, "logprobs": nil, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 4, "total_tokens": 5}}})
	temperature := 0.2
	completion, err := streamClient(server).Completions.Create(context.Background(), CompletionParams{
		Model: "merla", Messages: []ChatMessage{SystemMessage("Be brief"), UserMessage("Hi")}, Temperature: &temperature,
		MaxTokens: 50, Extra: map[string]any{"seed": 7},
	})
	if err != nil {
		t.Fatal(err)
	}
	if completion.Choices[0].Message.Content != "Me din de Ama" || completion.Usage.CompletionTokens != 4 {
		t.Fatalf("%+v", completion)
	}
	body := server.requests()[0].json(t)
	if body["temperature"] != 0.2 || body["max_tokens"] != float64(50) || body["seed"] != float64(7) || body["stream"] != false {
		t.Fatalf("body = %v", body)
	}
}
