package kasa

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func sseEvent(t *testing.T, name string, data any) string {
	t.Helper()
	encoded, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return "event: " + name + "\ndata: " + string(encoded) + "\n\n"
}

var videoEventsHeader = map[string]string{"Content-Type": "text/event-stream; charset=utf-8", "X-Request-Id": "req-events"}

func TestVideoEventsFollowAJobUntilDone(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: videoEventsHeader, chunks: []any{
		sseEvent(t, "job", videoJobAnswer(VideoQueued, 0, map[string]any{"queuePosition": 1})),
		": ping\n\n",
		sseEvent(t, "job", videoJobAnswer(VideoRunning, 40, nil)),
		sseEvent(t, "done", succeededJob("/api/video/files/"+videoFileID)),
	}})
	events, err := testClient(server, WithAPIKey("ksk_voice")).Video.Events(context.Background(), videoJobID)
	if err != nil {
		t.Fatal(err)
	}
	defer events.Close()
	type seen struct {
		kind, status string
		progress     int
	}
	var got []seen
	var first, last VideoJobEvent
	for events.Next() {
		event := events.Event()
		if len(got) == 0 {
			first = event.Job
		}
		last = event.Job
		got = append(got, seen{event.Type, event.Job.Status, event.Job.Progress})
	}
	if err := events.Err(); err != nil {
		t.Fatal(err)
	}
	want := []seen{{VideoEventJob, VideoQueued, 0}, {VideoEventJob, VideoRunning, 40}, {VideoEventDone, VideoSucceeded, 100}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events %+v, want %+v", got, want)
	}
	if first.QueuePosition == nil || *first.QueuePosition != 1 || last.QueuePosition != nil {
		t.Errorf("queue positions %v, %v", first.QueuePosition, last.QueuePosition)
	}
	if last.VideoURL != "/api/video/files/"+videoFileID || events.RequestID() != "req-events" {
		t.Errorf("last job %+v, request id %q", last, events.RequestID())
	}
	request := server.requests()[0]
	if request.method != "GET" || request.path != "/api/video/generations/"+videoJobID+"/events" {
		t.Errorf("request %s %s", request.method, request.path)
	}
	if request.header.Get("Accept") != "text/event-stream" || request.header.Get("Authorization") != "Bearer ksk_voice" {
		t.Errorf("headers %v", request.header)
	}
}

func TestVideoEventsEndWithAStreamErrorOnAnErrorEventOrADroppedConnection(t *testing.T) {
	gone := map[string]string{"message": "The video job no longer exists (it may have expired)."}
	for name, script := range map[string]reply{
		"error event": {header: videoEventsHeader, chunks: []any{
			sseEvent(t, "job", videoJobAnswer(VideoRunning, 30, nil)), sseEvent(t, "error", gone),
		}},
		"dropped": {header: videoEventsHeader, chunks: []any{sseEvent(t, "job", videoJobAnswer(VideoRunning, 30, nil))}, drop: true},
	} {
		t.Run(name, func(t *testing.T) {
			server := newLocalServer(t)
			server.script(script)
			events, err := testClient(server).Video.Events(context.Background(), videoJobID)
			if err != nil {
				t.Fatal(err)
			}
			defer events.Close()
			var progress []int
			for events.Next() {
				progress = append(progress, events.Event().Job.Progress)
			}
			if !reflect.DeepEqual(progress, []int{30}) {
				t.Errorf("progress %v", progress)
			}
			err = events.Err()
			var connErr *ConnectionError
			if !errors.Is(err, ErrStream) || !errors.As(err, &connErr) || connErr.Code != CodeStreamError {
				t.Fatalf("err = %v", err)
			}
			if name == "error event" && (connErr.Message != gone["message"] || connErr.RequestID != "req-events") {
				t.Errorf("err = %+v", connErr.APIError)
			}
		})
	}
}

func TestVideoEventsRefuseAnUnknownJobOrTooManyStreamsBeforeReading(t *testing.T) {
	server := newLocalServer(t)
	server.script(
		reply{status: 404, body: map[string]string{"message": "No video job with that id", "code": "not_found"}},
		reply{status: 429, body: map[string]string{"message": "You are already following 5 videos here", "code": "too_many_video_streams"}},
	)
	client := testClient(server, WithMaxRetries(0))
	_, err := client.Video.Events(context.Background(), "unknown")
	var notFound *NotFoundError
	if !errors.As(err, &notFound) {
		t.Fatalf("err = %v", err)
	}
	_, err = client.Video.Events(context.Background(), videoJobID)
	var limited *RateLimitError
	if !errors.As(err, &limited) || limited.Code != "too_many_video_streams" {
		t.Fatalf("err = %v", err)
	}
}

func TestVideoEventsCloseHangsUp(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{header: videoEventsHeader, chunks: []any{sseEvent(t, "job", videoJobAnswer(VideoRunning, 10, nil))}, endless: 20 * time.Millisecond})
	events, err := testClient(server).Video.Events(context.Background(), videoJobID)
	if err != nil {
		t.Fatal(err)
	}
	if !events.Next() || events.Event().Job.Progress != 10 {
		t.Fatalf("first event %+v, err %v", events.Event(), events.Err())
	}
	_ = events.Close()
	if !server.waitForClientGone(5 * time.Second) {
		t.Fatal("the server kept writing to a reader that had left")
	}
	if events.Next() || events.Err() != nil {
		t.Fatalf("after Close: err %v", events.Err())
	}
}
