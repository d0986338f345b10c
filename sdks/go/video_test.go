package kasa

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	videoJobID  = "AAAAAAAAAAAAAAAAAAAAAA"
	videoFileID = "BBBBBBBBBBBBBBBBBBBBBB"
)

var fakeMP4 = append([]byte("\x00\x00\x00\x18ftypisom"), make([]byte, 64)...)

func videoJobAnswer(status string, progress int, extra map[string]any) map[string]any {
	job := map[string]any{
		"id": videoJobID, "status": status, "progress": progress, "prompt": "Akwaaba!", "language": "en",
		"renderer": "offline", "createdAt": "2026-11-24T00:00:00.000Z", "updatedAt": "2026-11-24T00:00:01.000Z",
	}
	for name, value := range extra {
		job[name] = value
	}
	return job
}

func succeededJob(videoURL string) map[string]any {
	return videoJobAnswer(VideoSucceeded, 100, map[string]any{"videoUrl": videoURL, "duration": 2.5, "captions": "burned-in"})
}

func TestVideoCreatesWithAnIdempotencyKeyAndDownloadsWithoutTheCredential(t *testing.T) {
	server := newLocalServer(t)
	server.answer(func(r recorded) reply {
		if r.method == "POST" {
			return reply{status: 202, body: videoJobAnswer(VideoQueued, 0, nil)}
		}
		return reply{header: map[string]string{"Content-Type": "video/mp4"}, body: fakeMP4}
	})
	client := testClient(server, WithAPIKey("ksk_voice"))
	ctx := context.Background()
	created, err := client.Video.Create(ctx, VideoParams{Prompt: "Akwaaba!", Language: "en", Voice: "en-gb"})
	if err != nil {
		t.Fatal(err)
	}
	if created.ID != videoJobID || created.Status != VideoQueued || created.Progress != 0 || created.Finished() || created.CreatedAt.IsZero() {
		t.Fatalf("created %+v", created)
	}
	var done VideoJob
	done.ID, done.Status, done.VideoURL = videoJobID, VideoSucceeded, "/api/video/files/"+videoFileID
	video, err := client.Video.Download(ctx, &done)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(video.Data, fakeMP4) || video.ContentType != "video/mp4" {
		t.Fatalf("%d bytes of %s", len(video.Data), video.ContentType)
	}
	// A full address (a file on another host) is fetched as it is.
	done.VideoURL = server.URL + "/elsewhere/video.mp4"
	if _, err := client.Video.Download(ctx, &done); err != nil {
		t.Fatal(err)
	}

	sent := server.requests()
	var calls []string
	for _, r := range sent {
		calls = append(calls, r.method+" "+r.path)
	}
	want := []string{"POST /api/video/generations", "GET /api/video/files/" + videoFileID, "GET /elsewhere/video.mp4"}
	if !reflect.DeepEqual(calls, want) {
		t.Fatalf("calls %q, want %q", calls, want)
	}
	if body := sent[0].json(t); !reflect.DeepEqual(body, map[string]any{"prompt": "Akwaaba!", "language": "en", "voice": "en-gb"}) {
		t.Fatalf("body %v", body)
	}
	if sent[0].header.Get("Authorization") != "Bearer ksk_voice" || sent[0].header.Get("Idempotency-Key") == "" {
		t.Fatalf("create headers %v", sent[0].header)
	}
	for _, r := range sent[1:] {
		if r.header.Get("Authorization") != "" || r.header.Get("Accept") != "video/mp4" {
			t.Fatalf("download headers %v", r.header)
		}
	}
}

func TestVideoListsWithTheFiltersAndGetsAJobByItsEscapedID(t *testing.T) {
	server := newLocalServer(t)
	server.answer(func(r recorded) reply {
		if strings.SplitN(r.path, "?", 2)[0] == "/api/video/generations" {
			return reply{body: map[string]any{"jobs": []any{succeededJob("/api/video/files/" + videoFileID)}}}
		}
		return reply{body: videoJobAnswer(VideoRunning, 30, nil)}
	})
	client := testClient(server, WithToken("t"))
	ctx := context.Background()
	jobs, err := client.Video.List(ctx, VideoListParams{Limit: 5, Status: VideoSucceeded})
	if err != nil || len(jobs) != 1 || jobs[0].VideoURL != "/api/video/files/"+videoFileID || jobs[0].Duration != 2.5 {
		t.Fatalf("jobs %+v, %v", jobs, err)
	}
	if _, err := client.Video.List(ctx, VideoListParams{}); err != nil {
		t.Fatal(err)
	}
	if job, err := client.Video.Get(ctx, "../keys"); err != nil || job.Progress != 30 {
		t.Fatalf("job %+v, %v", job, err)
	}
	var paths []string
	for _, r := range server.requests() {
		paths = append(paths, r.path)
	}
	want := []string{"/api/video/generations?limit=5&status=succeeded", "/api/video/generations", "/api/video/generations/..%2Fkeys"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
}

func TestVideoWaitReadsTheJobUntilItEndsAndReportsEachRead(t *testing.T) {
	server := newLocalServer(t)
	server.script(
		reply{body: videoJobAnswer(VideoQueued, 0, nil)},
		reply{body: videoJobAnswer(VideoRunning, 40, nil)},
		reply{body: succeededJob("/api/video/files/" + videoFileID)},
	)
	var seen []string
	done, err := testClient(server).Video.Wait(context.Background(), videoJobID, VideoWaitParams{
		Interval:   5 * time.Millisecond,
		OnProgress: func(job *VideoJob) { seen = append(seen, job.Status) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != VideoSucceeded || done.Progress != 100 || done.VideoURL == "" || !done.Finished() {
		t.Fatalf("done %+v", done)
	}
	if !reflect.DeepEqual(seen, []string{VideoQueued, VideoRunning, VideoSucceeded}) {
		t.Fatalf("seen %q", seen)
	}
	if n := len(server.requests()); n != 3 {
		t.Fatalf("%d reads", n)
	}
}

func TestVideoWaitGivesAFailedJobAsItsAnswer(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: videoJobAnswer(VideoFailed, 10, map[string]any{"error": "The renderer stopped"})})
	failed, err := testClient(server).Video.Wait(context.Background(), videoJobID, VideoWaitParams{Interval: time.Millisecond})
	if err != nil || failed.Status != VideoFailed || failed.Error != "The renderer stopped" {
		t.Fatalf("failed %+v, %v", failed, err)
	}
}

func TestVideoWaitGivesUpAfterItsTimeoutWithTheLastJobRead(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: videoJobAnswer(VideoRunning, 40, nil)})
	_, err := testClient(server).Video.Wait(context.Background(), videoJobID, VideoWaitParams{Interval: 10 * time.Millisecond, Timeout: 50 * time.Millisecond})
	var late *WaitTimeoutError
	if !errors.As(err, &late) {
		t.Fatalf("err = %v (%T)", err, err)
	}
	if late.Status != 0 || late.Code != CodeWaitTimeout || late.Job == nil || late.Job.Progress != 40 {
		t.Fatalf("%+v %+v", late.APIError, late.Job)
	}
	if want := "The video job " + videoJobID + " had not finished after 50ms (status running, 40% done)."; late.Message != want {
		t.Fatalf("message %q, want %q", late.Message, want)
	}
	if !errors.Is(err, ErrWaitTimeout) || errors.Is(err, ErrConnection) || errors.Is(err, ErrTimeout) {
		t.Fatal("a wait timeout matches ErrWaitTimeout only")
	}
	if n := len(server.requests()); n < 2 {
		t.Fatalf("%d reads", n)
	}
}

func TestVideoWaitEndsWithTheCallersContext(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: videoJobAnswer(VideoQueued, 0, nil)})
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	_, err := testClient(server).Video.Wait(ctx, videoJobID, VideoWaitParams{
		Interval:   time.Hour,
		OnProgress: func(*VideoJob) { once.Do(cancel) },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	var late *WaitTimeoutError
	if errors.As(err, &late) {
		t.Fatal("the caller's cancel is not a wait timeout")
	}
}

func TestVideoWaitReturnsTheAPIsErrorWhenAReadFails(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 404, body: map[string]string{"message": "Video job not found", "code": "not_found", "requestId": "r-1"}})
	_, err := testClient(server).Video.Wait(context.Background(), videoJobID, VideoWaitParams{Interval: time.Millisecond})
	var missing *NotFoundError
	if !errors.As(err, &missing) || missing.RequestID != "r-1" {
		t.Fatalf("err = %v", err)
	}
}

func TestVideoDownloadOfAJobWithoutAVideoIsVideoNotReadyAndSendsNothing(t *testing.T) {
	server := newLocalServer(t)
	running := &VideoJob{ID: videoJobID, Status: VideoRunning, Progress: 60}
	_, err := testClient(server).Video.Download(context.Background(), running)
	var notReady *VideoNotReadyError
	if !errors.As(err, &notReady) || notReady.Status != 0 || notReady.Code != CodeVideoNotReady || notReady.Job != running {
		t.Fatalf("err = %v (%T)", err, err)
	}
	if !strings.Contains(notReady.Message, "running") || !errors.Is(err, ErrVideoNotReady) || errors.Is(err, ErrConnection) {
		t.Fatalf("%+v", notReady.APIError)
	}
	if _, err := testClient(server).Video.Download(context.Background(), nil); !errors.Is(err, ErrVideoNotReady) {
		t.Fatalf("a nil job: %v", err)
	}
	if n := len(server.requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

func TestVideoCreateIsRetriedWithTheSameIdempotencyKey(t *testing.T) {
	server := newLocalServer(t)
	server.script(
		reply{status: 503, body: map[string]string{"message": "Voice is unavailable", "code": "upstream_unavailable"}},
		reply{status: 202, body: videoJobAnswer(VideoQueued, 0, nil)},
	)
	if _, err := testClient(server).Video.Create(context.Background(), VideoParams{Prompt: "Hello.", Language: "auto"}); err != nil {
		t.Fatal(err)
	}
	sent := server.requests()
	if len(sent) != 2 || sent[0].header.Get("Idempotency-Key") == "" || sent[0].header.Get("Idempotency-Key") != sent[1].header.Get("Idempotency-Key") {
		t.Fatalf("%d requests, keys %q", len(sent), []string{sent[0].header.Get("Idempotency-Key"), sent[len(sent)-1].header.Get("Idempotency-Key")})
	}
}
