package kasa

import (
	"context"
	"net/http"
)

// CompletionsService is the OpenAI-compatible API (/v1): the personas are the models. OpenAI's own client
// libraries work against it too; this is the same API without another dependency.
type CompletionsService struct{ client *Client }

// CompletionParams describe a chat completion.
type CompletionParams struct {
	// Model is a persona id ("kasa", "merla", ...); an unknown one is a *NotFoundError.
	Model string
	// Messages are the conversation so far (at least one).
	Messages []ChatMessage
	// Temperature is from 0 to 2; nil leaves it to the persona.
	Temperature *float64
	// MaxTokens bounds the answer; 0 leaves it open.
	MaxTokens int
	// User is your end user's id, for your own tracing.
	User string
	// IncludeUsage (streams only) makes the last chunk carry the token counts.
	IncludeUsage bool
	// Tools are the functions the model may call (at most 128); the answer's ToolCalls say which it called.
	Tools []Tool
	// ToolChoice is "auto" (the default with Tools), "none", "required" or FunctionChoice(name); nil leaves it out.
	ToolChoice any
	// ParallelToolCalls says whether the model may call several tools at once; nil leaves it to the provider.
	ParallelToolCalls *bool
	// ResponseFormat asks for a JSON reply (checked before it is returned); nil is text.
	ResponseFormat *ResponseFormat
	// Extra fields go into the request body as given (OpenAI's other parameters).
	Extra map[string]any
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string
}

func (p CompletionParams) request(stream bool) *request {
	body := make(map[string]any, len(p.Extra)+10)
	for name, value := range p.Extra {
		body[name] = value
	}
	messages := p.Messages
	if messages == nil {
		messages = []ChatMessage{}
	}
	body["model"] = p.Model
	body["messages"] = messages
	body["stream"] = stream
	if p.Temperature != nil {
		body["temperature"] = *p.Temperature
	}
	if p.MaxTokens > 0 {
		body["max_tokens"] = p.MaxTokens
	}
	if p.User != "" {
		body["user"] = p.User
	}
	if len(p.Tools) > 0 {
		body["tools"] = p.Tools
	}
	if p.ToolChoice != nil {
		body["tool_choice"] = p.ToolChoice
	}
	if p.ParallelToolCalls != nil {
		body["parallel_tool_calls"] = *p.ParallelToolCalls
	}
	if p.ResponseFormat != nil {
		body["response_format"] = p.ResponseFormat
	}
	accept := "application/json"
	if stream {
		accept = "text/event-stream"
		if p.IncludeUsage {
			body["stream_options"] = map[string]any{"include_usage": true}
		}
	}
	return &request{
		method:         http.MethodPost,
		path:           "/v1/chat/completions",
		body:           body,
		accept:         accept,
		creates:        true,
		idempotencyKey: p.IdempotencyKey,
	}
}

// Create gives the whole completion (POST /v1/chat/completions).
func (s *CompletionsService) Create(ctx context.Context, params CompletionParams) (*ChatCompletion, error) {
	var out ChatCompletion
	if err := s.client.call(ctx, params.request(false), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Stream gives the completion as OpenAI's chunks (POST /v1/chat/completions with stream: true). It returns once
// the answer has started; read the stream, and Close it. ctx covers the whole stream.
func (s *CompletionsService) Stream(ctx context.Context, params CompletionParams) (*CompletionStream, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	resp, err := s.client.send(ctx, params.request(true))
	if err != nil {
		return nil, err
	}
	return &CompletionStream{body: newStreamBody(ctx, resp, s.client.cfg.baseURL, s.client.cfg.maxEventBytes)}, nil
}

// Models lists the personas (and the caller's custom ones) as models (GET /v1/models).
func (s *CompletionsService) Models(ctx context.Context) (*ModelList, error) {
	var out ModelList
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/v1/models"}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
