package kasa

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// DefaultWaitInterval is how long Video.Wait waits between two reads of a job.
const DefaultWaitInterval = 2 * time.Second

// DefaultWaitTimeout is how long Video.Wait waits in all.
const DefaultWaitTimeout = 15 * time.Minute

// VideoService makes videos from a prompt (Enterprise plan; an API key needs the voice scope): the prompt read
// aloud, its sentences shown as captions. A video is a queued job that takes seconds to minutes: Create it, then
// Wait for it (or poll Get), then Download it or hand its VideoURL to a player. Other plans get a
// *PermissionDeniedError naming Enterprise.
type VideoService struct{ client *Client }

// VideoParams describe a video to make.
type VideoParams struct {
	// Prompt is what the video says and shows (1 to 2,000 characters): read aloud, its sentences shown as captions.
	Prompt string `json:"prompt"`
	// Language is the prompt's language as a BCP 47 tag ("tw", "fr-CI"), or "auto" to detect it.
	Language string `json:"language"`
	// Voice is a voice id from Voice.Voices; "": the language's default voice.
	Voice string `json:"voice,omitempty"`
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string `json:"-"`
}

// VideoListParams choose which of the caller's jobs Video.List gives.
type VideoListParams struct {
	// Limit is how many of the newest jobs, 1 to 50 (0: the API's default, 20).
	Limit int
	// Status keeps only the jobs with this status (VideoQueued, ...); "": all.
	Status string
}

// VideoWaitParams set how Video.Wait polls a job.
type VideoWaitParams struct {
	// Interval is the wait between two reads of the job (0: DefaultWaitInterval).
	Interval time.Duration
	// Timeout is how long to wait in all (0: DefaultWaitTimeout); then Wait returns a *WaitTimeoutError.
	Timeout time.Duration
	// OnProgress, when set, is called with the job each time it is read (its Status and Progress, for a progress
	// bar), on the goroutine that called Wait.
	OnProgress func(*VideoJob)
}

func videoJobPath(jobID string) string { return "/api/video/generations/" + escape(jobID) }

// Create queues a video and gives the job, VideoQueued (POST /api/video/generations, answered 202). A
// *BadRequestError names a wrong prompt, language or voice; a *RateLimitError (too_many_video_jobs) says too many of
// the caller's videos are being made at once.
func (s *VideoService) Create(ctx context.Context, params VideoParams) (*VideoJob, error) {
	var out VideoJob
	req := &request{method: http.MethodPost, path: "/api/video/generations", body: params, creates: true, idempotencyKey: params.IdempotencyKey}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get gives one of the caller's jobs (GET /api/video/generations/:id); anyone else's, or an unknown id, is a
// *NotFoundError.
func (s *VideoService) Get(ctx context.Context, jobID string) (*VideoJob, error) {
	var out VideoJob
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: videoJobPath(jobID)}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// List gives the caller's jobs, newest first (GET /api/video/generations).
func (s *VideoService) List(ctx context.Context, params VideoListParams) ([]VideoJob, error) {
	query := url.Values{}
	if params.Limit > 0 {
		query.Set("limit", strconv.Itoa(params.Limit))
	}
	if params.Status != "" {
		query.Set("status", params.Status)
	}
	var out struct {
		Jobs []VideoJob `json:"jobs"`
	}
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/video/generations", query: query}, &out); err != nil {
		return nil, err
	}
	return out.Jobs, nil
}

// Wait reads the job every Interval until it has ended, and gives it: VideoSucceeded (with VideoURL and Duration)
// or VideoFailed (with Error); a failed job is an answer, not an error. After Timeout it returns a
// *WaitTimeoutError (matching ErrWaitTimeout) with the last job read; the job goes on being made. A read that
// fails returns the API's error (after the usual retries), and ctx ending returns ctx's error.
func (s *VideoService) Wait(ctx context.Context, jobID string, params VideoWaitParams) (*VideoJob, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	interval, timeout := params.Interval, params.Timeout
	if interval <= 0 {
		interval = DefaultWaitInterval
	}
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last *VideoJob
	for {
		job, err := s.Get(wctx, jobID)
		if err != nil {
			return nil, waitFailure(ctx, err, jobID, timeout, last)
		}
		last = job
		if params.OnProgress != nil {
			params.OnProgress(job)
		}
		if job.Finished() {
			return job, nil
		}
		if err := sleep(wctx, interval); err != nil {
			return nil, waitFailure(ctx, err, jobID, timeout, last)
		}
	}
}

// waitFailure is what a wait returns when a read or a pause between reads ended with err: the caller's context
// ending, the wait's own time running out, or the read's error.
func waitFailure(ctx context.Context, err error, jobID string, timeout time.Duration, last *VideoJob) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		where := ""
		if last != nil {
			where = fmt.Sprintf(" (status %s, %d%% done)", last.Status, last.Progress)
		}
		message := fmt.Sprintf("The video job %s had not finished after %v%s.", jobID, timeout, where)
		return &WaitTimeoutError{APIError: &APIError{Status: 0, Code: CodeWaitTimeout, Message: message}, Job: last}
	}
	return err
}

// Download fetches the MP4 of a job that succeeded (GET its VideoURL, /api/video/files/:id) without the client's
// credential: the address itself is the secret. A job without a video returns a *VideoNotReadyError (matching
// ErrVideoNotReady) and sends nothing; a video past its time to live is a *NotFoundError.
func (s *VideoService) Download(ctx context.Context, job *VideoJob) (*VideoFile, error) {
	if job == nil || job.VideoURL == "" {
		id, status := "", ""
		if job != nil {
			id, status = job.ID, job.Status
		}
		message := fmt.Sprintf("The video job %s has no video (its status is %s): wait for it to succeed first.", id, status)
		return nil, &VideoNotReadyError{APIError: &APIError{Status: 0, Code: CodeVideoNotReady, Message: message}, Job: job}
	}
	req := &request{method: http.MethodGet, path: job.VideoURL, accept: "video/mp4", anonymous: true}
	resp, err := s.client.exchange(ctx, req, true)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return &VideoFile{Data: data, ContentType: mediaType(resp.Header)}, nil
}
