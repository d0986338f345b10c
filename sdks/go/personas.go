package kasa

import (
	"context"
	"net/http"
)

// PersonasService lists the personas to chat with.
type PersonasService struct{ client *Client }

// List gives Kasa's six personas (kasa, merla, ticha, massa, nana, dokta), then the caller's own custom ones
// (GET /api/personas).
func (s *PersonasService) List(ctx context.Context) ([]Persona, error) {
	var out []Persona
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/personas"}, &out); err != nil {
		return nil, err
	}
	return out, nil
}
