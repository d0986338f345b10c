package kasa

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// acceptAudio is the audio the client takes, in the server's order of preference: the format is the server's
// setting (MP3 by default), not the caller's.
const acceptAudio = "audio/mpeg, audio/ogg, audio/wav"

// VoiceService speaks text (Pro and Enterprise plans) and lists the voices.
type VoiceService struct{ client *Client }

// SynthesizeParams describe what to speak.
type SynthesizeParams struct {
	// Text is up to 5,000 characters.
	Text string `json:"text"`
	// Voice is a voice id from Voices; "": the language's default voice.
	Voice string `json:"voice,omitempty"`
	// Language is the text's language tag ("en" when empty), or "auto" to detect it.
	Language string `json:"language,omitempty"`
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string `json:"-"`
}

// Voices lists the voices of the installed engines, of one language ("" for all) (GET /api/voice/voices).
func (s *VoiceService) Voices(ctx context.Context, language string) ([]Voice, error) {
	query := url.Values{}
	if language != "" {
		query.Set("language", language)
	}
	var out struct {
		Voices []Voice `json:"voices"`
	}
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/voice/voices", query: query}, &out); err != nil {
		return nil, err
	}
	return out.Voices, nil
}

func synthesizeRequest(params SynthesizeParams, accept string) *request {
	return &request{
		method:         http.MethodPost,
		path:           "/api/voice/synthesize",
		body:           params,
		accept:         accept,
		creates:        true,
		idempotencyKey: params.IdempotencyKey,
	}
}

// Synthesize speaks text and gives the audio's bytes, with its content type (MP3 unless the server is set up
// otherwise) and the stored copy's address (POST /api/voice/synthesize). Pro and Enterprise plans only (a
// *PermissionDeniedError otherwise; the landing page's samples excepted); an API key needs the voice scope.
func (s *VoiceService) Synthesize(ctx context.Context, params SynthesizeParams) (*Audio, error) {
	resp, err := s.client.exchange(ctx, synthesizeRequest(params, acceptAudio), true)
	if err != nil {
		return nil, err
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return &Audio{Data: data, ContentType: mediaType(resp.Header), AudioURL: resp.Header.Get("X-Kasa-Audio-Url")}, nil
	}
	// Made before: the API answers with the stored copy's address instead of the audio.
	var stored Synthesis
	if err := json.Unmarshal(data, &stored); err != nil || stored.AudioURL == "" {
		return nil, fmt.Errorf("kasa: the synthesis answer names no audio (%v)", err)
	}
	// The address is itself the secret, and may be on another host: the credential is not sent along.
	audioReq := &request{method: http.MethodGet, path: stored.AudioURL, accept: acceptAudio, anonymous: true}
	audio, err := s.client.exchange(ctx, audioReq, true)
	if err != nil {
		return nil, err
	}
	defer audio.Body.Close()
	content, _ := io.ReadAll(audio.Body)
	return &Audio{Data: content, ContentType: mediaType(audio.Header), AudioURL: stored.AudioURL}, nil
}

// SynthesizeToURL speaks text and gives the stored audio's address and length (POST /api/voice/synthesize): hand
// AudioURL to a player; it needs no credential, and expires.
func (s *VoiceService) SynthesizeToURL(ctx context.Context, params SynthesizeParams) (*Synthesis, error) {
	var out Synthesis
	if err := s.client.call(ctx, synthesizeRequest(params, "application/json"), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// mediaType is the Content-Type without its parameters.
func mediaType(header http.Header) string {
	value := header.Get("Content-Type")
	if value == "" {
		return "application/octet-stream"
	}
	if i := strings.IndexByte(value, ';'); i >= 0 {
		value = value[:i]
	}
	return strings.TrimSpace(value)
}
