package kasa

import (
	"context"
	"net/http"
)

// Share makes a read-only link to the conversation as it is now (POST /api/chat/sessions/:id/share): Path
// ("/share/<token>") opens on the site's origin. Sharing again keeps the link and brings it up to date; a
// conversation without messages is a *BadRequestError, someone else's a *NotFoundError.
func (s *SessionsService) Share(ctx context.Context, sessionID string) (*ConversationShare, error) {
	var out ConversationShare
	// Sharing again keeps the link and only brings it up to date: safe to repeat.
	req := &request{method: http.MethodPost, path: sessionPath(sessionID) + "/share", idempotent: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetShare gives the conversation's link (GET /api/chat/sessions/:id/share); a *NotFoundError when it is not
// shared.
func (s *SessionsService) GetShare(ctx context.Context, sessionID string) (*ConversationShare, error) {
	var out ConversationShare
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: sessionPath(sessionID) + "/share"}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// StopSharing makes the conversation's link answer 404 from now on (DELETE /api/chat/sessions/:id/share); stopping
// a conversation that is not shared is not an error.
func (s *SessionsService) StopSharing(ctx context.Context, sessionID string) error {
	return s.client.call(ctx, &request{method: http.MethodDelete, path: sessionPath(sessionID) + "/share"}, nil)
}

// ReadShared gives a conversation someone shared (GET /api/chat/shared/:token), read without an account: the client
// sends no credential for it. Once its owner stops sharing it, or for a token that was never shared, it is a
// *NotFoundError.
func (s *SessionsService) ReadShared(ctx context.Context, token string) (*SharedConversation, error) {
	var out SharedConversation
	// The token is the only secret the page needs.
	req := &request{method: http.MethodGet, path: "/api/chat/shared/" + escape(token), anonymous: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
