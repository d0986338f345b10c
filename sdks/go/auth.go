package kasa

import (
	"context"
	"net/http"
)

// AuthService signs up, in and out, and says who is signed in. Signing up or in makes the client send the new
// access token (it wins over an API key); account calls need that token: API keys are refused on them.
type AuthService struct{ client *Client }

// RegisterParams are the new account's details.
type RegisterParams struct {
	Username string `json:"username"`
	Email    string `json:"email"`
	// Password has at least 6 characters.
	Password string `json:"password"`
}

// LoginParams are an account's e-mail address and password.
type LoginParams struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Register creates an account (POST /api/auth/register); later calls send its token. A taken e-mail address is a
// *ConflictError, a wrong field a *BadRequestError naming it.
func (s *AuthService) Register(ctx context.Context, params RegisterParams) (*AuthResponse, error) {
	var out AuthResponse
	req := &request{method: http.MethodPost, path: "/api/auth/register", body: params, creates: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	s.client.SetToken(out.Token)
	return &out, nil
}

// Login signs in (POST /api/auth/login); later calls send the token. A wrong password is an
// *AuthenticationError.
func (s *AuthService) Login(ctx context.Context, params LoginParams) (*AuthResponse, error) {
	var out AuthResponse
	// Signing in twice only issues a second token: safe to retry.
	req := &request{method: http.MethodPost, path: "/api/auth/login", body: params, idempotent: true}
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	s.client.SetToken(out.Token)
	return &out, nil
}

// Me gives the signed-in user and whether they are an operator (GET /api/auth/me); it needs an access token.
func (s *AuthService) Me(ctx context.Context) (*MeUser, error) {
	var out struct {
		User MeUser `json:"user"`
	}
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/auth/me"}, &out); err != nil {
		return nil, err
	}
	return &out.User, nil
}

// Logout revokes the token on the server (POST /api/auth/logout); the client forgets it whatever the answer, and
// goes back to its API key, if any.
func (s *AuthService) Logout(ctx context.Context) error {
	defer s.client.SetToken("")
	// Revoking a token twice is the same as once.
	return s.client.call(ctx, &request{method: http.MethodPost, path: "/api/auth/logout", idempotent: true}, nil)
}
