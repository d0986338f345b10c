package kasa

import (
	"context"
	"net/http"
	"net/url"
)

// GeoService says where an IP address appears to be.
type GeoService struct{ client *Client }

// Lookup gives the country, region, city, time zone, currency and the languages spoken where ip appears to be
// (GET /api/geo); "" looks up the caller's own address. An address Kasa cannot place is Found false, not an error;
// something that is not an IP address is a *BadRequestError.
func (s *GeoService) Lookup(ctx context.Context, ip string) (*GeoLookup, error) {
	query := url.Values{}
	if ip != "" {
		query.Set("ip", ip)
	}
	var out GeoLookup
	if err := s.client.call(ctx, &request{method: http.MethodGet, path: "/api/geo", query: query}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
