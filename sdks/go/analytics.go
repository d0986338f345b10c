package kasa

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// AnalyticsService gives the caller's own usage figures. It takes an access token or an API key with the
// analytics scope; reading them never uses up the monthly quota. The figures follow the calls within seconds,
// not at once.
type AnalyticsService struct{ client *Client }

// Summary gives the caller's calls per API area and the monthly quota, response times, and the sessions and
// messages per persona and language (GET /api/developer/analytics).
func (s *AnalyticsService) Summary(ctx context.Context) (*Analytics, error) {
	var out dataEnvelope[Analytics]
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/developer/analytics"}, &out); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// UsageParams choose the window and the key of Usage.
type UsageParams struct {
	// Days is the window, 1 to 90 days up to today (0: 30).
	Days int
	// KeyID keeps only the calls made with one of the caller's keys ("": every call); an unknown key is a
	// *NotFoundError.
	KeyID string
}

// Usage gives the caller's API calls per day, endpoint, status and key (GET /api/analytics/usage).
func (s *AnalyticsService) Usage(ctx context.Context, params UsageParams) (*Usage, error) {
	query := url.Values{}
	if params.Days > 0 {
		query.Set("days", strconv.Itoa(params.Days))
	}
	if params.KeyID != "" {
		query.Set("keyId", params.KeyID)
	}
	var out dataEnvelope[Usage]
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/analytics/usage", query: query}, &out); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// Sessions gives the caller's newest chat sessions with their message counts (GET /api/analytics/sessions);
// limit is 1 to 100 (0: 50).
func (s *AnalyticsService) Sessions(ctx context.Context, limit int) ([]AnalyticsSession, error) {
	query := url.Values{}
	if limit > 0 {
		query.Set("limit", strconv.Itoa(limit))
	}
	var out dataEnvelope[[]AnalyticsSession]
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/analytics/sessions", query: query}, &out); err != nil {
		return nil, err
	}
	return out.Data, nil
}
