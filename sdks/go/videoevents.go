package kasa

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// The types of a video job's events (VideoEvent.Type).
const (
	// VideoEventJob is the job at once and on each change while it is queued or running.
	VideoEventJob = "job"
	// VideoEventDone is the job once it has succeeded or failed: the last event of the stream.
	VideoEventDone = "done"
)

// VideoJobEvent is a video job as its event stream sends it: the job, and while it is queued its place in the queue.
type VideoJobEvent struct {
	VideoJob
	// QueuePosition is, while the job is queued, how many queued jobs were created before it (0: it is next); nil
	// once it has left the queue.
	QueuePosition *int `json:"queuePosition,omitempty"`
}

// VideoEvent is one event of Video.Events.
type VideoEvent struct {
	// Type is VideoEventJob or VideoEventDone.
	Type string
	// Job is the job as it is now.
	Job VideoJobEvent
}

// Events follows one of the caller's jobs as the server pushes its changes (GET /api/video/generations/:id/events):
// a VideoEventJob event at once and on each change of its status or progress, then a VideoEventDone event with the
// job once it has succeeded or failed, after which the stream ends. Someone else's job (or an unknown id) is a
// *NotFoundError; more than 5 open streams per person a *RateLimitError (too_many_video_streams). Read the stream
// like a bufio.Scanner, and Close it; ctx covers the whole stream.
//
//	events, err := client.Video.Events(ctx, job.ID)
//	if err != nil {
//		return err
//	}
//	defer events.Close()
//	for events.Next() {
//		fmt.Printf("%s %d%%\n", events.Event().Job.Status, events.Event().Job.Progress)
//	}
//	return events.Err()
func (s *VideoService) Events(ctx context.Context, jobID string) (*VideoEventStream, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	req := &request{method: http.MethodGet, path: videoJobPath(jobID) + "/events", accept: "text/event-stream"}
	resp, err := s.client.send(ctx, req)
	if err != nil {
		return nil, err
	}
	return &VideoEventStream{body: newStreamBody(ctx, resp, s.client.cfg.baseURL, s.client.cfg.maxEventBytes)}, nil
}

// VideoEventStream is a video job's event stream: Next, then Event, until Next gives false; then Err says why it
// ended (nil after the VideoEventDone event, or after Close). Next and Event belong to one goroutine; Close and
// RequestID may be called from any.
type VideoEventStream struct {
	body    *streamBody
	current *VideoEvent
	ended   bool

	state  sync.Mutex
	err    error
	finish sync.Once
}

// RequestID is the id the API gave the request (x-request-id), to quote when asking for support.
func (s *VideoEventStream) RequestID() string { return s.body.requestID }

// Next reads the next event; false when the stream has ended (see Err) or was closed.
func (s *VideoEventStream) Next() bool {
	for !s.ended {
		raw, err := s.body.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.end(err)
			return false
		}
		switch raw.Event {
		case VideoEventJob, VideoEventDone:
			var job VideoJobEvent
			if err := json.Unmarshal([]byte(raw.Data), &job); err != nil {
				s.end(decodeFailure(raw.Event, err, s.body.requestID))
				return false
			}
			s.current = &VideoEvent{Type: raw.Event, Job: job}
			// The job has ended: so has the stream (the server closes it after this event).
			s.ended = raw.Event == VideoEventDone
			return true
		case "error":
			// The stream ends before the job does (it was deleted, say).
			var failure struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal([]byte(raw.Data), &failure)
			if failure.Message == "" {
				failure.Message = "The video job's events stopped before the job ended."
			}
			s.end(newConnectionError(CodeStreamError, failure.Message, s.body.requestID, nil))
			return false
		}
	}
	s.current = nil
	s.end(nil)
	return false
}

// Event is the event the last Next read.
func (s *VideoEventStream) Event() *VideoEvent { return s.current }

// Err is why the stream ended: nil after the VideoEventDone event or after Close; a *ConnectionError (ErrStream,
// ErrTimeout) when the stream ended before the job did (an error event, or the connection broke off).
func (s *VideoEventStream) Err() error {
	s.state.Lock()
	defer s.state.Unlock()
	return s.err
}

// Close hangs up and releases the connection; closing again does nothing.
func (s *VideoEventStream) Close() error {
	s.body.close()
	s.end(nil)
	return nil
}

func (s *VideoEventStream) end(err error) {
	s.finish.Do(func() {
		s.state.Lock()
		s.err = err
		s.state.Unlock()
		s.body.close()
	})
}
