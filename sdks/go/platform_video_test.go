package kasa_test

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	kasa "github.com/kasa-ai/kasa-go"
)

// renderTimeout is long enough for a short video on a busy 2-core machine; a hung job fails the test instead of the
// run.
const renderTimeout = 90 * time.Second

var videoIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`)

func isMP4(data []byte) bool { return len(data) > 1000 && bytes.Equal(data[4:8], []byte("ftyp")) }

// renderCtx bounds a wait for a video: longer than one call's, shorter than the run's.
func renderCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), renderTimeout+10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestPlatformMakesAVideoForEnterpriseWaitsForItListsItAndDownloadsIt(t *testing.T) {
	p := onPlatform(t)
	client := p.enterprise()
	key := "video-" + newPerson(t).username
	params := kasa.VideoParams{Prompt: "Akwaaba! Welcome to Kasa.", Language: "en", IdempotencyKey: key}
	created := must(client.Video.Create(p.ctx(), params))(t)
	if !videoIDPattern.MatchString(created.ID) || created.Status != kasa.VideoQueued || created.Progress != 0 || created.Language != "en" {
		t.Fatalf("created %+v", created)
	}
	// The same key again is the same job, not a second video.
	if replayed := must(client.Video.Create(p.ctx(), params))(t); replayed.ID != created.ID {
		t.Fatalf("replayed %s, created %s", replayed.ID, created.ID)
	}

	// No video before the job has succeeded, and nothing is sent for it.
	_, err := client.Video.Download(p.ctx(), created)
	if notReady := expectError[*kasa.VideoNotReadyError](t, err); notReady.Code != kasa.CodeVideoNotReady || notReady.Status != 0 {
		t.Fatalf("%+v", notReady.APIError)
	}
	// A wait that runs out of time says how far the job got, and leaves it alone.
	_, err = client.Video.Wait(p.ctx(), created.ID, kasa.VideoWaitParams{Timeout: time.Millisecond})
	late := expectError[*kasa.WaitTimeoutError](t, err)
	if !errors.Is(err, kasa.ErrWaitTimeout) || (late.Job != nil && late.Job.ID != created.ID) {
		t.Fatalf("%+v %+v", late.APIError, late.Job)
	}

	var seen []*kasa.VideoJob
	done := must(client.Video.Wait(renderCtx(t), created.ID, kasa.VideoWaitParams{
		Interval:   250 * time.Millisecond,
		Timeout:    renderTimeout,
		OnProgress: func(job *kasa.VideoJob) { seen = append(seen, job) },
	}))(t)
	if done.ID != created.ID || done.Status != kasa.VideoSucceeded || done.Progress != 100 || done.Duration <= 0 ||
		!regexp.MustCompile(`^/api/video/files/[A-Za-z0-9_-]{22}$`).MatchString(done.VideoURL) {
		t.Fatalf("done %+v", done)
	}
	if len(seen) == 0 || seen[len(seen)-1] != done {
		t.Fatalf("the last job seen is not the answer: %d seen", len(seen))
	}

	if again := must(client.Video.Get(p.ctx(), created.ID))(t); again.Status != kasa.VideoSucceeded || again.VideoURL != done.VideoURL {
		t.Fatalf("again %+v", again)
	}
	ids := func(jobs []kasa.VideoJob) string {
		var out []string
		for _, job := range jobs {
			out = append(out, job.ID)
		}
		return strings.Join(out, ",")
	}
	if listed := must(client.Video.List(p.ctx(), kasa.VideoListParams{}))(t); ids(listed) != created.ID {
		t.Fatalf("listed %s", ids(listed))
	}
	if listed := must(client.Video.List(p.ctx(), kasa.VideoListParams{Status: kasa.VideoSucceeded, Limit: 1}))(t); ids(listed) != created.ID {
		t.Fatalf("listed succeeded %s", ids(listed))
	}
	if listed := must(client.Video.List(p.ctx(), kasa.VideoListParams{Status: kasa.VideoFailed}))(t); len(listed) != 0 {
		t.Fatalf("listed failed %s", ids(listed))
	}

	video := must(client.Video.Download(p.ctx(), done))(t)
	if video.ContentType != "video/mp4" || !isMP4(video.Data) {
		t.Fatalf("%d bytes of %s", len(video.Data), video.ContentType)
	}
	// The address itself is the key: it needs no credential.
	if resp, data := p.get(done.VideoURL); resp.StatusCode != 200 || !bytes.Equal(data, video.Data) {
		t.Fatalf("%d, %d bytes without a credential", resp.StatusCode, len(data))
	}
}

func TestPlatformFollowsAVideoJobWithItsEventsUntilDone(t *testing.T) {
	p := onPlatform(t)
	owner, other := p.enterprise(), p.enterprise()
	created := must(owner.Video.Create(p.ctx(), kasa.VideoParams{Prompt: "Akwaaba! The events follow this video.", Language: "en"}))(t)
	// Someone else's job is a *NotFoundError, like its Get.
	_, err := other.Video.Events(p.ctx(), created.ID)
	expectError[*kasa.NotFoundError](t, err)

	events := must(owner.Video.Events(renderCtx(t), created.ID))(t)
	defer events.Close()
	var seen []kasa.VideoEvent
	for events.Next() {
		seen = append(seen, *events.Event())
	}
	if err := events.Err(); err != nil {
		t.Fatalf("events: %v (after %+v)", err, seen)
	}
	if len(seen) == 0 || seen[0].Type != kasa.VideoEventJob || (seen[0].Job.Status != kasa.VideoQueued && seen[0].Job.Status != kasa.VideoRunning) {
		t.Fatalf("first event %+v", seen)
	}
	done := seen[len(seen)-1]
	if done.Type != kasa.VideoEventDone || done.Job.ID != created.ID || done.Job.Status != kasa.VideoSucceeded || done.Job.Progress != 100 {
		t.Fatalf("last event %+v", done)
	}
	for i, event := range seen {
		if i < len(seen)-1 && event.Type != kasa.VideoEventJob {
			t.Errorf("event %d is %q before the end", i, event.Type)
		}
		if i > 0 && event.Job.Progress < seen[i-1].Job.Progress {
			t.Errorf("progress went back: %d after %d", event.Job.Progress, seen[i-1].Job.Progress)
		}
	}
	if again := must(owner.Video.Get(p.ctx(), created.ID))(t); again.VideoURL != done.Job.VideoURL || again.VideoURL == "" {
		t.Errorf("job %+v, done event %+v", again, done.Job)
	}
}

func TestPlatformSomeoneElsesVideoJobOrAnUnknownOneIsA404AndABadPromptA400(t *testing.T) {
	p := onPlatform(t)
	owner, other := p.enterprise(), p.enterprise()
	created := must(owner.Video.Create(p.ctx(), kasa.VideoParams{Prompt: "Hello.", Language: "en"}))(t)
	_, err := other.Video.Get(p.ctx(), created.ID)
	if notFound := expectError[*kasa.NotFoundError](t, err); notFound.Status != 404 || notFound.Code != "not_found" {
		t.Fatalf("%+v", notFound.APIError)
	}
	if jobs := must(other.Video.List(p.ctx(), kasa.VideoListParams{}))(t); len(jobs) != 0 {
		t.Fatalf("the other person sees %d jobs", len(jobs))
	}
	_, err = owner.Video.Get(p.ctx(), "AAAAAAAAAAAAAAAAAAAAAA")
	expectError[*kasa.NotFoundError](t, err)

	_, err = owner.Video.Create(p.ctx(), kasa.VideoParams{Prompt: "", Language: "en"})
	bad := expectError[*kasa.BadRequestError](t, err)
	named := false
	for _, field := range bad.FieldErrors() {
		named = named || field.Path == "prompt"
	}
	if bad.Code != "validation_failed" || !named {
		t.Fatalf("%+v %v", bad.APIError, bad.FieldErrors())
	}
	// The job made above is left to finish, so that it does not outlive the test's platform half-made.
	done := must(owner.Video.Wait(renderCtx(t), created.ID, kasa.VideoWaitParams{Interval: 250 * time.Millisecond, Timeout: renderTimeout}))(t)
	if done.Status != kasa.VideoSucceeded {
		t.Fatalf("done %+v", done)
	}
}

func TestPlatformVideoOnTheFreeAndProPlansIsA403NamingEnterprise(t *testing.T) {
	p := onPlatform(t)
	for _, client := range []*kasa.Client{p.signedIn(), p.pro()} {
		_, err := client.Video.Create(p.ctx(), kasa.VideoParams{Prompt: "Hello.", Language: "en"})
		denied := expectError[*kasa.PermissionDeniedError](t, err)
		if denied.Status != 403 || denied.Code != "forbidden" || !strings.Contains(denied.Message, "Enterprise plan") ||
			!strings.Contains(string(denied.Details), `"plan":"enterprise"`) {
			t.Fatalf("%+v %s", denied.APIError, denied.Details)
		}
	}
	_, err := p.client().Video.List(p.ctx(), kasa.VideoListParams{})
	expectError[*kasa.AuthenticationError](t, err)
}
