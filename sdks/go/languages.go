package kasa

import (
	"context"
	"net/http"
	"net/url"
)

// LanguagesService lists the language catalogue (what Kasa can do in each language) and detects a text's
// language. It needs no credential.
type LanguagesService struct{ client *Client }

// List gives the catalogue (GET /api/languages); with a capability (CapabilitySpeak, ...), only the languages
// that have it ("" for all).
func (s *LanguagesService) List(ctx context.Context, capability string) (*LanguageList, error) {
	query := url.Values{}
	if capability != "" {
		query.Set("capability", capability)
	}
	var out LanguageList
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/languages", query: query}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get gives one language by any of its codes or a tag ("tw", "twi", "en-GB"); an unknown one is a
// *NotFoundError (GET /api/languages/:code).
func (s *LanguagesService) Get(ctx context.Context, code string) (*Language, error) {
	var out Language
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/languages/" + escape(code)}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Detect gives the likeliest language of text, its confidence and the alternatives (POST
// /api/languages/detect). hints (may be nil) tell the detector what the app knows.
func (s *LanguagesService) Detect(ctx context.Context, text string, hints *DetectHints) (*DetectedLanguage, error) {
	body := struct {
		Text  string       `json:"text"`
		Hints *DetectHints `json:"hints,omitempty"`
	}{Text: text, Hints: hints}
	var out DetectedLanguage
	// Detection only reads: safe to repeat.
	req := &request{method: http.MethodPost, path: "/api/languages/detect", body: body, idempotent: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
