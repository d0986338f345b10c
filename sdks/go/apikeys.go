package kasa

import (
	"context"
	"net/http"
)

// APIKeysService creates, lists and revokes the caller's API keys. Managing keys needs an access token (sign in
// first): a key cannot manage keys.
type APIKeysService struct{ client *Client }

// APIKeyCreateParams describe a new key.
type APIKeyCreateParams struct {
	// Name is up to 60 characters.
	Name string `json:"name"`
	// Scopes are what the key may call (ScopeChat, ScopeVoice, ScopeAnalytics); none: every scope.
	Scopes []string `json:"scopes,omitempty"`
	// ExpiresInDays is from 1 to 365; 0: the key never expires.
	ExpiresInDays int `json:"expiresInDays,omitempty"`
	// Team makes a key of the caller's team rather than their own (team owners and admins only; anyone else gets a
	// *PermissionDeniedError): the created key's TeamID names the team, and its calls count on the team's quota.
	Team bool `json:"team,omitempty"`
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string `json:"-"`
}

// Create makes a key (POST /api/developer/keys). Its Secret is shown this once: store it now.
func (s *APIKeysService) Create(ctx context.Context, params APIKeyCreateParams) (*CreatedAPIKey, error) {
	var out CreatedAPIKey
	req := &request{method: http.MethodPost, path: "/api/developer/keys", body: params, creates: true, idempotencyKey: params.IdempotencyKey}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// List gives the caller's keys, newest first, revoked ones included, masked (GET /api/developer/keys).
func (s *APIKeysService) List(ctx context.Context) ([]APIKey, error) {
	var out struct {
		Keys []APIKey `json:"keys"`
	}
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/developer/keys"}, &out); err != nil {
		return nil, err
	}
	return out.Keys, nil
}

// Revoke makes a key stop working (DELETE /api/developer/keys/:id); revoking it again is fine, an unknown id is a
// *NotFoundError.
func (s *APIKeysService) Revoke(ctx context.Context, keyID string) error {
	return s.client.call(ctx, &request{method: http.MethodDelete, path: "/api/developer/keys/" + escape(keyID)}, nil)
}
