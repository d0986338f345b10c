package kasa_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	kasa "github.com/kasa-ai/kasa-go"
)

// The integration tests (TestPlatform...) run against the built platform: KASA_BASE_URL is its address,
// KASA_FAKE_PROVIDER_URL a control of the fake AI provider it calls, and KASA_PLAN_CONTROL_URL a control that moves an
// account to the Enterprise plan (sold by the sales team, not the checkout); sdks/go/go.test.ts starts all three, in
// npm test. Without KASA_BASE_URL they are skipped, so that `go test ./...` in this folder runs the unit tests alone.

// defaultText is what the fake provider answers unless a test says otherwise.
const defaultText = "Hello from the fake provider."

// platform is the platform of one test: its address and the fake provider, reset to its default answer.
type platform struct {
	t        *testing.T
	baseURL  string
	provider *fakeProvider
}

func onPlatform(t *testing.T) *platform {
	t.Helper()
	baseURL := os.Getenv("KASA_BASE_URL")
	if baseURL == "" {
		t.Skip("KASA_BASE_URL is not set: run the integration tests against the platform with `npx jest sdks/go`")
	}
	control := os.Getenv("KASA_FAKE_PROVIDER_URL")
	if control == "" {
		t.Fatal("KASA_FAKE_PROVIDER_URL is not set: run the integration tests with `npx jest sdks/go`")
	}
	p := &platform{t: t, baseURL: baseURL, provider: &fakeProvider{t: t, url: control}}
	p.provider.answer(defaultText, 0)
	return p
}

// ctx is a context for one call or stream, bounded so that a hung platform fails the test instead of the run.
func (p *platform) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	p.t.Cleanup(cancel)
	return ctx
}

// client is a client of the platform with no credential (KASA_API_KEY of the environment is not used).
func (p *platform) client(opts ...kasa.Option) *kasa.Client {
	return kasa.NewClient(append([]kasa.Option{kasa.WithBaseURL(p.baseURL), kasa.WithAPIKey("")}, opts...)...)
}

// person is a new account's details.
type person struct{ username, email, password string }

func newPerson(t *testing.T) person {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	run := hex.EncodeToString(b[:])
	return person{username: "kofi_" + run, email: "kofi." + run + "@example.com", password: "adinkra-sika"}
}

func (who person) register() kasa.RegisterParams {
	return kasa.RegisterParams{Username: who.username, Email: who.email, Password: who.password}
}

// signedIn is a client signed in as a new person (on the Free plan).
func (p *platform) signedIn() *kasa.Client {
	p.t.Helper()
	client := p.client()
	if _, err := client.Auth.Register(p.ctx(), newPerson(p.t).register()); err != nil {
		p.t.Fatalf("register: %v", err)
	}
	return client
}

// pro is a client signed in as a new person on the Pro plan. The SDK has no billing calls: the checkout is called
// directly (the test platform's payment provider completes it at once), and its answer carries a token with the
// new plan.
func (p *platform) pro() *kasa.Client {
	p.t.Helper()
	client := p.signedIn()
	req, _ := http.NewRequestWithContext(p.ctx(), http.MethodPost, p.baseURL+"/api/billing/checkout", bytes.NewReader([]byte(`{"planId":"pro"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+client.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Token string    `json:"token"`
		User  kasa.User `json:"user"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(raw, &body) != nil || body.User.SubscriptionTier != "pro" {
		p.t.Fatalf("checkout: %d %s", resp.StatusCode, raw)
	}
	client.SetToken(body.Token)
	return client
}

// enterprise is a client signed in as a new person on the Enterprise plan: the plan control sets the plan, then the
// person signs in again, so that the token carries it.
func (p *platform) enterprise() *kasa.Client {
	p.t.Helper()
	control := os.Getenv("KASA_PLAN_CONTROL_URL")
	if control == "" {
		p.t.Fatal("KASA_PLAN_CONTROL_URL is not set: run the integration tests with `npx jest sdks/go`")
	}
	who := newPerson(p.t)
	client := p.client()
	if _, err := client.Auth.Register(p.ctx(), who.register()); err != nil {
		p.t.Fatalf("register: %v", err)
	}
	data, _ := json.Marshal(map[string]string{"email": who.email, "plan": "enterprise"})
	req, _ := http.NewRequestWithContext(p.ctx(), http.MethodPut, control+"/plan", bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		p.t.Fatalf("the plan control answered %d", resp.StatusCode)
	}
	login, err := client.Auth.Login(p.ctx(), kasa.LoginParams{Email: who.email, Password: who.password})
	if err != nil || login.User.SubscriptionTier != "enterprise" {
		p.t.Fatalf("signing in again: %+v %v", login, err)
	}
	return client
}

// createTeam makes a team owned by the client's person (Enterprise) and gives its id. The module has no team calls:
// the team is made with the client's access token directly.
func (p *platform) createTeam(owner *kasa.Client, name string) string {
	p.t.Helper()
	data, _ := json.Marshal(map[string]string{"name": name})
	req, _ := http.NewRequestWithContext(p.ctx(), http.MethodPost, p.baseURL+"/api/developer/team", bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+owner.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body struct {
		Team struct {
			ID string `json:"id"`
		} `json:"team"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(raw, &body) != nil || body.Team.ID == "" {
		p.t.Fatalf("creating a team: %d %s", resp.StatusCode, raw)
	}
	return body.Team.ID
}

// get fetches an address of the platform without a credential.
func (p *platform) get(path string) (*http.Response, []byte) {
	p.t.Helper()
	req, _ := http.NewRequestWithContext(p.ctx(), http.MethodGet, p.baseURL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	return resp, data
}

// fakeProvider is the control of the fake OpenAI-compatible provider the platform's chat service calls.
type fakeProvider struct {
	t   *testing.T
	url string
}

// answer makes the provider stream text word by word, delayMs apart.
func (f *fakeProvider) answer(text string, delayMs int) {
	f.set(map[string]any{"kind": "ok", "text": text, "delayMs": delayMs})
}

// endless makes the provider stream "w1 ", "w2 "... until the platform hangs up.
func (f *fakeProvider) endless(intervalMs int) {
	f.set(map[string]any{"kind": "endless", "intervalMs": intervalMs})
}

// hungUp reports whether the platform hung up on the provider's last call.
func (f *fakeProvider) hungUp() bool {
	f.t.Helper()
	resp, err := http.Get(f.url + "/requests/last")
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var last map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&last); err != nil || resp.StatusCode != http.StatusOK {
		f.t.Fatalf("the provider's last request: %d %v", resp.StatusCode, err)
	}
	closed, ok := last["closedAt"]
	return ok && closed != nil
}

func (f *fakeProvider) set(mode map[string]any) {
	f.t.Helper()
	data, _ := json.Marshal(mode)
	req, _ := http.NewRequest(http.MethodPut, f.url+"/mode", bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		f.t.Fatalf("setting the provider's mode: %d", resp.StatusCode)
	}
}

// eventually waits for check to hold, failing the test naming what it waited for.
func eventually(t *testing.T, what string, timeout time.Duration, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tokensOf joins the text of a reply's token events.
func tokensOf(events []kasa.ReplyEvent) []string {
	var tokens []string
	for _, event := range events {
		if token, ok := event.(*kasa.TokenEvent); ok {
			tokens = append(tokens, token.Text)
		}
	}
	return tokens
}

// must gives a call's value, failing the test with its error: must(client.Auth.Me(ctx))(t).
func must[T any](value T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%v", err)
		}
		return value
	}
}

// expectError gives err as the kind T, failing the test when it is not one.
func expectError[T error](t *testing.T, err error) T {
	t.Helper()
	var target T
	if !errors.As(err, &target) {
		t.Fatalf("got %v (%T), want a %T", err, err, target)
	}
	return target
}
