package kasa

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"
)

var authAnswer = map[string]any{
	"success": true,
	"token":   "new-token",
	"user":    map[string]any{"id": "u", "username": "ama", "email": "ama@example.com", "subscriptionTier": "free", "createdAt": "2026-11-24T00:00:00.000Z"},
	"message": "Welcome",
}

func TestSendsTheAPIKeyAsABearerCredentialAndNamesItself(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: []any{}})
	if _, err := testClient(server, WithAPIKey("ksk_test")).Personas.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	header := server.requests()[0].header
	if got := header.Get("Authorization"); got != "Bearer ksk_test" {
		t.Errorf("Authorization = %q", got)
	}
	if got := header.Get("User-Agent"); got != "kasa-go/1.5.0" {
		t.Errorf("User-Agent = %q", got)
	}
	if Version != "1.5.0" {
		t.Errorf("Version = %q", Version)
	}
}

func TestATokenWinsOverTheKeyAndLogoutFallsBackToTheKey(t *testing.T) {
	server := newLocalServer(t)
	client := testClient(server, WithAPIKey("ksk_test"))
	ctx := context.Background()
	server.script(reply{body: authAnswer})
	auth, err := client.Auth.Login(ctx, LoginParams{Email: "ama@example.com", Password: "adinkra-sika"})
	if err != nil {
		t.Fatal(err)
	}
	if auth.User.Username != "ama" || client.Token() != "new-token" {
		t.Fatalf("signed in as %q with token %q", auth.User.Username, client.Token())
	}
	server.script(reply{body: map[string]any{"success": true, "message": "Signed out"}})
	if err := client.Auth.Logout(ctx); err != nil {
		t.Fatal(err)
	}
	if client.Token() != "" {
		t.Fatalf("the token %q was kept after logout", client.Token())
	}
	server.script(reply{body: []any{}})
	if _, err := client.Personas.List(ctx); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, r := range server.requests() {
		sent = append(sent, r.header.Get("Authorization"))
	}
	want := []string{"Bearer ksk_test", "Bearer new-token", "Bearer ksk_test"}
	if !reflect.DeepEqual(sent, want) {
		t.Fatalf("credentials sent = %q, want %q", sent, want)
	}
}

func TestLogoutForgetsTheTokenEvenWhenTheServerRefuses(t *testing.T) {
	server := newLocalServer(t)
	client := testClient(server, WithToken("old"), WithMaxRetries(0))
	server.script(reply{status: 401, body: map[string]string{"message": "Token revoked", "code": "unauthenticated"}})
	if err := client.Auth.Logout(context.Background()); !errors.Is(err, ErrUnauthenticated) {
		t.Fatalf("err = %v", err)
	}
	if client.Token() != "" {
		t.Fatal("the token was kept")
	}
}

func TestReadsTheKeyAndTheAddressFromTheEnvironment(t *testing.T) {
	server := newLocalServer(t)
	t.Setenv("KASA_API_KEY", "ksk_from_env")
	t.Setenv("KASA_BASE_URL", server.URL)
	server.script(reply{body: []any{}})
	personas, err := NewClient().Personas.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(personas) != 0 {
		t.Fatalf("personas = %v", personas)
	}
	if got := server.requests()[0].header.Get("Authorization"); got != "Bearer ksk_from_env" {
		t.Fatalf("Authorization = %q", got)
	}
}

func TestDefaultsToTheLocalPlatform(t *testing.T) {
	t.Setenv("KASA_BASE_URL", "")
	if got := NewClient().BaseURL(); got != "http://localhost:8080" || DefaultBaseURL != "http://localhost:8080" {
		t.Fatalf("BaseURL() = %q", got)
	}
	if got := NewClient(WithBaseURL("https://kasa.example/")).BaseURL(); got != "https://kasa.example" {
		t.Fatalf("BaseURL() = %q", got)
	}
}

func TestSendsNoCredentialWhenItHasNone(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: map[string]any{"count": 0, "languages": []any{}}})
	client := NewClient(WithBaseURL(server.URL+"/"), WithAPIKey(""))
	if _, err := client.Languages.List(context.Background(), CapabilitySpeak); err != nil {
		t.Fatal(err)
	}
	request := server.requests()[0]
	if _, sent := request.header["Authorization"]; sent {
		t.Errorf("Authorization was sent: %q", request.header.Get("Authorization"))
	}
	if request.path != "/api/languages?capability=speak" {
		t.Errorf("path = %q", request.path)
	}
}

func TestBuildsPathsAndQueriesWithIDsEscaped(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: map[string]any{
		"id": "s", "personaId": "kasa", "title": "t", "createdAt": "2026-11-24T00:00:00.000Z",
		"messages": []any{}, "nextCursor": nil,
	}})
	client := testClient(server, WithToken("t"))
	page, err := client.Chat.Messages.List(context.Background(), "../keys", PageParams{Limit: 5, Cursor: "abc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Messages) != 0 || page.NextCursor != "" {
		t.Fatalf("page = %+v", page)
	}
	if got := server.requests()[0].path; got != "/api/chat/sessions/..%2Fkeys?cursor=abc&limit=5" {
		t.Fatalf("path = %q", got)
	}
}

func TestDecodesTheAnswersTypes(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: map[string]any{
		"secret": "ksk_abc",
		"key": map[string]any{
			"id": "k1", "name": "CI", "maskedKey": "ksk_abcd…wxyz", "scopes": []string{"chat"},
			"createdAt": "2026-11-24T10:00:00.000Z", "expiresAt": "2026-12-24T10:00:00.000Z",
			"lastUsedAt": nil, "revokedAt": nil, "teamId": nil,
		},
		"message": "Store it now",
	}})
	created, err := testClient(server, WithToken("t")).APIKeys.Create(context.Background(),
		APIKeyCreateParams{Name: "CI", Scopes: []string{ScopeChat}, ExpiresInDays: 30})
	if err != nil {
		t.Fatal(err)
	}
	key := created.Key
	if key.ExpiresAt == nil || !key.ExpiresAt.Equal(time.Date(2026, 12, 24, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("ExpiresAt = %v", key.ExpiresAt)
	}
	if key.RevokedAt != nil || key.LastUsedAt != nil || key.TeamID != "" {
		t.Errorf("key = %+v", key)
	}
	body := server.requests()[0].json(t)
	if !reflect.DeepEqual(body, map[string]any{"name": "CI", "scopes": []any{"chat"}, "expiresInDays": float64(30)}) {
		t.Errorf("body = %v", body)
	}
}

func TestCreatesATeamKeyOnlyWhenAsked(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{status: 201, body: map[string]any{
		"secret": "ksk_team",
		"key": map[string]any{
			"id": "k1", "name": "CI", "maskedKey": "ksk_team…abcd", "scopes": []string{"chat"},
			"createdAt": "2026-11-24T10:00:00.000Z", "expiresAt": nil, "lastUsedAt": nil, "revokedAt": nil, "teamId": "t1",
		},
		"message": "Store it now",
	}})
	client := testClient(server, WithToken("t"))
	created, err := client.APIKeys.Create(context.Background(), APIKeyCreateParams{Name: "CI", Scopes: []string{ScopeChat}, Team: true})
	if err != nil {
		t.Fatal(err)
	}
	if created.Key.TeamID != "t1" {
		t.Errorf("TeamID = %q", created.Key.TeamID)
	}
	if _, err := client.APIKeys.Create(context.Background(), APIKeyCreateParams{Name: "Mine"}); err != nil {
		t.Fatal(err)
	}
	if body := server.requests()[0].json(t); !reflect.DeepEqual(body, map[string]any{"name": "CI", "scopes": []any{"chat"}, "team": true}) {
		t.Errorf("team key body = %v", body)
	}
	if body := server.requests()[1].json(t); !reflect.DeepEqual(body, map[string]any{"name": "Mine"}) {
		t.Errorf("personal key body = %v", body)
	}
}

func TestSynthesizeGivesTheAudioBytes(t *testing.T) {
	server := newLocalServer(t)
	audio := bytes.Repeat([]byte{0xFF, 0xFB, 0x90, 0x00}, 512)
	server.script(reply{header: map[string]string{"Content-Type": "audio/mpeg", "X-Kasa-Audio-Url": "/api/voice/audio/x"}, body: audio})
	spoken, err := testClient(server, WithAPIKey("ksk_voice")).Voice.Synthesize(context.Background(),
		SynthesizeParams{Text: "Akwaaba", Language: "tw"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(spoken.Data, audio) || spoken.ContentType != "audio/mpeg" || spoken.AudioURL != "/api/voice/audio/x" {
		t.Fatalf("audio: %d bytes, %q, %q", len(spoken.Data), spoken.ContentType, spoken.AudioURL)
	}
	request := server.requests()[0]
	if got := request.header.Get("Accept"); got != "audio/mpeg, audio/ogg, audio/wav" {
		t.Errorf("Accept = %q", got)
	}
	if body := request.json(t); !reflect.DeepEqual(body, map[string]any{"text": "Akwaaba", "language": "tw"}) {
		t.Errorf("body = %v", body)
	}
}

func TestSynthesizeFetchesTheStoredAudioWithoutTheCredentialWhenAnsweredWithJSON(t *testing.T) {
	server := newLocalServer(t)
	audio := []byte("RIFF....WAVEfmt ")
	server.answer(func(r recorded) reply {
		if r.path == "/api/voice/synthesize" {
			return reply{status: 201, body: map[string]any{"audioUrl": "/api/voice/audio/abc", "duration": 1.2}}
		}
		return reply{header: map[string]string{"Content-Type": "audio/wav"}, body: audio}
	})
	spoken, err := testClient(server, WithAPIKey("ksk_voice")).Voice.Synthesize(context.Background(), SynthesizeParams{Text: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(spoken.Data, audio) || spoken.ContentType != "audio/wav" || spoken.AudioURL != "/api/voice/audio/abc" {
		t.Fatalf("audio = %q, %q, %q", spoken.Data, spoken.ContentType, spoken.AudioURL)
	}
	fetched := server.requests()[1]
	if fetched.method != http.MethodGet || fetched.path != "/api/voice/audio/abc" {
		t.Fatalf("fetched %s %s", fetched.method, fetched.path)
	}
	if _, sent := fetched.header["Authorization"]; sent {
		t.Fatal("the credential was sent with the stored audio's address")
	}
}

func TestWithOptionsSharesTheCredentialAndAddsHeaders(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{body: []any{}})
	client := testClient(server)
	tagged := client.WithOptions(WithHeader("X-Trace", "t1"))
	client.SetToken("later-token")
	if _, err := tagged.Personas.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	header := server.requests()[0].header
	if header.Get("Authorization") != "Bearer later-token" || header.Get("X-Trace") != "t1" {
		t.Fatalf("headers = %v", header)
	}
	if _, err := client.Personas.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := server.requests()[1].header.Get("X-Trace"); got != "" {
		t.Fatalf("the copy's header leaked into the client: %q", got)
	}
}

func TestRegisterSignsInAndSendsAnIdempotencyKey(t *testing.T) {
	server := newLocalServer(t)
	server.answer(func(r recorded) reply {
		if r.path == "/api/auth/register" {
			return reply{status: 201, body: authAnswer}
		}
		return reply{body: map[string]any{"user": authAnswer["user"]}}
	})
	client := testClient(server)
	ctx := context.Background()
	if _, err := client.Auth.Register(ctx, RegisterParams{Username: "ama", Email: "ama@example.com", Password: "adinkra-sika"}); err != nil {
		t.Fatal(err)
	}
	me, err := client.Auth.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if me.Email != "ama@example.com" || me.SubscriptionTier != "free" {
		t.Fatalf("me = %+v", me)
	}
	requests := server.requests()
	if requests[0].header.Get("Idempotency-Key") == "" {
		t.Error("register was sent without an Idempotency-Key")
	}
	if got := requests[1].header.Get("Authorization"); got != "Bearer new-token" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestACancelledContextEndsTheCallAtOnce(t *testing.T) {
	server := newLocalServer(t)
	server.script(reply{delay: 5 * time.Second, body: []any{}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	started := time.Now()
	_, err := testClient(server).Personas.List(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	if elapsed := time.Since(started); elapsed > 2*time.Second {
		t.Fatalf("the call took %v after its context ended", elapsed)
	}
	if len(server.requests()) != 1 {
		t.Fatalf("%d requests: the caller's own deadline is not retried", len(server.requests()))
	}
}
