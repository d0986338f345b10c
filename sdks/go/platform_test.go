package kasa_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	kasa "github.com/kasa-ai/kasa-go"
)

const unknownSession = "0123456789abcdef01234567"

// Accounts.

func TestPlatformRegistersSignsInReadsMeAndSignsOut(t *testing.T) {
	p := onPlatform(t)
	who := newPerson(t)
	first, other := p.client(), p.client()
	registered := must(first.Auth.Register(p.ctx(), who.register()))(t)
	if !registered.Success || registered.User.Username != who.username || registered.User.SubscriptionTier != "free" {
		t.Fatalf("registered %+v", registered)
	}
	if first.Token() != registered.Token {
		t.Fatal("the client does not send the new token")
	}
	login := must(other.Auth.Login(p.ctx(), kasa.LoginParams{Email: who.email, Password: who.password}))(t)
	if other.Token() != login.Token {
		t.Fatal("the client does not send the token of the sign-in")
	}
	me := must(other.Auth.Me(p.ctx()))(t)
	if me.Email != who.email || me.Username != who.username {
		t.Fatalf("me = %+v", me)
	}
	if err := other.Auth.Logout(p.ctx()); err != nil {
		t.Fatal(err)
	}
	if other.Token() != "" {
		t.Fatal("the token was kept after logout")
	}
	// The revoked token works nowhere any more.
	_, err := p.client(kasa.WithToken(login.Token)).Auth.Me(p.ctx())
	refused := expectError[*kasa.AuthenticationError](t, err)
	if refused.Status != 401 || refused.Code != "unauthenticated" {
		t.Fatalf("%+v", refused.APIError)
	}
}

func TestPlatformAWrongPasswordIsA401WithTheAPIsMessageAndRequestID(t *testing.T) {
	p := onPlatform(t)
	who := newPerson(t)
	client := p.client()
	must(client.Auth.Register(p.ctx(), who.register()))(t)
	_, err := client.Auth.Login(p.ctx(), kasa.LoginParams{Email: who.email, Password: "not-the-password"})
	refused := expectError[*kasa.AuthenticationError](t, err)
	if refused.Status != 401 || refused.Code != "unauthenticated" || refused.Message != "Invalid email or password" || refused.RequestID == "" {
		t.Fatalf("%+v", refused.APIError)
	}
	if !errors.Is(err, kasa.ErrUnauthenticated) {
		t.Fatal("not ErrUnauthenticated")
	}
}

func TestPlatformInvalidRegistrationIsA400NamingEachWrongField(t *testing.T) {
	p := onPlatform(t)
	client := p.client()
	_, err := client.Auth.Register(p.ctx(), kasa.RegisterParams{Username: "x", Email: "not-an-email", Password: "123"})
	bad := expectError[*kasa.BadRequestError](t, err)
	if bad.Status != 400 || bad.Code != "validation_failed" {
		t.Fatalf("%+v", bad.APIError)
	}
	fields := map[string]bool{}
	for _, field := range bad.FieldErrors() {
		fields[field.Path] = true
	}
	for _, name := range []string{"username", "email", "password"} {
		if !fields[name] {
			t.Errorf("%s is not named in %v", name, bad.FieldErrors())
		}
	}
	if client.Token() != "" {
		t.Fatal("a token out of a refused registration")
	}
}

func TestPlatformRegisteringATakenAddressAgainIsA409(t *testing.T) {
	p := onPlatform(t)
	who := newPerson(t)
	client := p.client()
	must(client.Auth.Register(p.ctx(), who.register()))(t)
	again := who.register()
	again.Username += "_2"
	_, err := client.Auth.Register(p.ctx(), again)
	if conflict := expectError[*kasa.ConflictError](t, err); conflict.Status != 409 {
		t.Fatalf("%+v", conflict.APIError)
	}
}

func TestPlatformACallWithoutACredentialIsA401(t *testing.T) {
	p := onPlatform(t)
	_, err := p.client().Chat.Sessions.List(p.ctx(), kasa.PageParams{})
	refused := expectError[*kasa.AuthenticationError](t, err)
	if refused.Code != "unauthenticated" || refused.RequestID == "" {
		t.Fatalf("%+v", refused.APIError)
	}
}

func TestPlatformAMadeUpAPIKeyIsA401(t *testing.T) {
	p := onPlatform(t)
	_, err := p.client(kasa.WithAPIKey("ksk_" + strings.Repeat("A", 43))).Personas.List(p.ctx())
	expectError[*kasa.AuthenticationError](t, err)
}

func TestPlatformAnAPIKeyIsRefusedOnAccountRoutes(t *testing.T) {
	p := onPlatform(t)
	created := must(p.signedIn().APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Account routes"}))(t)
	keyed := p.client(kasa.WithAPIKey(created.Secret))
	_, err := keyed.Auth.Me(p.ctx())
	expectError[*kasa.AuthenticationError](t, err)
	_, err = keyed.APIKeys.List(p.ctx())
	expectError[*kasa.AuthenticationError](t, err)
}

// Personas, sessions and messages.

func TestPlatformListsTheSixPersonas(t *testing.T) {
	p := onPlatform(t)
	personas := must(p.signedIn().Personas.List(p.ctx()))(t)
	ids := map[string]bool{}
	for _, persona := range personas {
		ids[persona.ID] = true
	}
	for _, id := range []string{"kasa", "merla", "ticha", "massa", "nana", "dokta"} {
		if !ids[id] {
			t.Errorf("no persona %s", id)
		}
	}
}

func TestPlatformCreatesListsRenamesAndDeletesASessionAndSendsAMessage(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "ticha", Title: "Algebra"}))(t)
	if session.PersonaID != "ticha" || session.Title != "Algebra" || session.CreatedAt.IsZero() {
		t.Fatalf("session = %+v", session)
	}
	reply := must(client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "What is 2 + 2?", Language: "en"}))(t)
	if reply.Role != "assistant" || reply.Content != defaultText || reply.Status != kasa.StatusComplete || reply.UserMessageID == "" {
		t.Fatalf("reply = %+v", reply)
	}

	page := must(client.Chat.Messages.List(p.ctx(), session.ID, kasa.PageParams{}))(t)
	if len(page.Messages) != 2 || page.Messages[0].Role != "user" || page.Messages[0].Content != "What is 2 + 2?" ||
		page.Messages[1].Role != "assistant" || page.Messages[1].Content != defaultText || page.NextCursor != "" {
		t.Fatalf("page = %+v", page)
	}
	one := must(client.Chat.Sessions.Get(p.ctx(), session.ID, kasa.PageParams{Limit: 1}))(t)
	if len(one.Messages) != 1 || one.Messages[0].Role != "assistant" || one.NextCursor == "" || one.Title != "Algebra" {
		t.Fatalf("newest page = %+v", one)
	}
	older := must(client.Chat.Messages.List(p.ctx(), session.ID, kasa.PageParams{Limit: 1, Cursor: one.NextCursor}))(t)
	if len(older.Messages) != 1 || older.Messages[0].Role != "user" {
		t.Fatalf("older page = %+v", older)
	}

	sessions := must(client.Chat.Sessions.List(p.ctx(), kasa.PageParams{Limit: 10}))(t)
	if len(sessions.Sessions) == 0 || sessions.Sessions[0].ID != session.ID {
		t.Fatalf("sessions = %+v", sessions)
	}
	if renamed := must(client.Chat.Sessions.Rename(p.ctx(), session.ID, "Maths"))(t); renamed.Title != "Maths" {
		t.Fatalf("renamed = %+v", renamed)
	}
	if err := client.Chat.Sessions.Delete(p.ctx(), session.ID); err != nil {
		t.Fatal(err)
	}
	_, err := client.Chat.Sessions.Get(p.ctx(), session.ID, kasa.PageParams{})
	if gone := expectError[*kasa.NotFoundError](t, err); gone.Code != "not_found" {
		t.Fatalf("%+v", gone.APIError)
	}
}

func TestPlatformAnotherPersonsSessionIsA404Everywhere(t *testing.T) {
	p := onPlatform(t)
	owner, stranger := p.signedIn(), p.signedIn()
	session := must(owner.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Mine"}))(t)
	reply := must(owner.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "Hello"}))(t)

	_, err := stranger.Chat.Sessions.Get(p.ctx(), session.ID, kasa.PageParams{})
	expectError[*kasa.NotFoundError](t, err)
	_, err = stranger.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "Hi"})
	expectError[*kasa.NotFoundError](t, err)
	_, err = stranger.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Hi"})
	if notFound := expectError[*kasa.NotFoundError](t, err); notFound.Code != "not_found" {
		t.Fatalf("%+v", notFound.APIError)
	}
	_, err = stranger.Chat.Messages.Resume(p.ctx(), session.ID, reply.ID)
	expectError[*kasa.NotFoundError](t, err)
	_, err = stranger.Chat.Messages.Stop(p.ctx(), session.ID, reply.ID)
	expectError[*kasa.NotFoundError](t, err)
	expectError[*kasa.NotFoundError](t, stranger.Chat.Sessions.Delete(p.ctx(), session.ID))
	// Still there for its owner.
	if mine := must(owner.Chat.Sessions.Get(p.ctx(), session.ID, kasa.PageParams{}))(t); mine.Title != "Mine" {
		t.Fatalf("%+v", mine)
	}
}

func TestPlatformAnUnknownSessionIsA404(t *testing.T) {
	p := onPlatform(t)
	_, err := p.signedIn().Chat.Sessions.Get(p.ctx(), unknownSession, kasa.PageParams{})
	if !errors.Is(err, kasa.ErrNotFound) {
		t.Fatalf("%v", err)
	}
}

func TestPlatformBadInputIsA400NamingTheField(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	_, err := client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "nobody", Title: "Who?"})
	expectError[*kasa.BadRequestError](t, err)

	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Empty"}))(t)
	_, err = client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "   "})
	empty := expectError[*kasa.BadRequestError](t, err)
	named := false
	for _, field := range empty.FieldErrors() {
		named = named || field.Path == "content"
	}
	if empty.Code != "validation_failed" || !named {
		t.Fatalf("%+v %v", empty.APIError, empty.FieldErrors())
	}
	_, err = client.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Hi", Language: "not a language!"})
	expectError[*kasa.BadRequestError](t, err)
	_, err = client.Chat.Sessions.Get(p.ctx(), "not-an-id", kasa.PageParams{})
	expectError[*kasa.BadRequestError](t, err)
}

func TestPlatformStreamsMetaThenEveryTokenInOrderThenTheStoredReply(t *testing.T) {
	p := onPlatform(t)
	text := "Akwaaba one two three four five six seven eight nine ten"
	p.provider.answer(text, 5)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Stream"}))(t)

	stream := must(client.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Count to ten"}))(t)
	defer stream.Close()
	var events []kasa.ReplyEvent
	for stream.Next() {
		events = append(events, stream.Event())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	meta, ok := events[0].(*kasa.MetaEvent)
	if !ok || meta.Provider != "fake" || meta.Continued {
		t.Fatalf("first event %#v", events[0])
	}
	done, ok := events[len(events)-1].(*kasa.DoneEvent)
	if !ok || done.Message.Content != text || done.Message.Status != kasa.StatusComplete || done.Message.ID != meta.AssistantMessageID {
		t.Fatalf("last event %#v", events[len(events)-1])
	}
	tokens := tokensOf(events)
	if len(tokens) <= 5 || strings.Join(tokens, "") != text {
		t.Fatalf("tokens %q", tokens)
	}
	if stream.RequestID() == "" {
		t.Fatal("no request id")
	}
}

func TestPlatformStopEndsTheReplyOnTheServerAndKeepsWhatWasWritten(t *testing.T) {
	p := onPlatform(t)
	p.provider.endless(20)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Stop"}))(t)
	stream := must(client.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Go on for ever"}))(t)
	defer stream.Close()
	var tokens []string
	var done *kasa.DoneEvent
	for stream.Next() {
		switch event := stream.Event().(type) {
		case *kasa.TokenEvent:
			tokens = append(tokens, event.Text)
			if len(tokens) == 3 {
				stopped := must(stream.Stop(p.ctx()))(t)
				if stopped.ID != stream.AssistantMessageID() {
					t.Fatalf("stopped %s, streaming %s", stopped.ID, stream.AssistantMessageID())
				}
			}
		case *kasa.DoneEvent:
			done = event
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if done == nil {
		t.Fatal("the stream ended without its done event")
	}
	if done.Message.Status != kasa.StatusStopped || !strings.HasPrefix(done.Message.Content, "w1 w2 w3") {
		t.Fatalf("done %+v", done.Message)
	}
	if strings.Join(tokens[:3], "") != "w1 w2 w3 " {
		t.Fatalf("tokens %q", tokens)
	}
	eventually(t, "the provider call to be cancelled", 10*time.Second, p.provider.hungUp)
	page := must(client.Chat.Messages.List(p.ctx(), session.ID, kasa.PageParams{}))(t)
	last := page.Messages[len(page.Messages)-1]
	if last.ID != done.Message.ID || last.Status != kasa.StatusStopped {
		t.Fatalf("stored %+v", last)
	}
}

func TestPlatformHangingUpStopsAReplyThatIsNotResumable(t *testing.T) {
	p := onPlatform(t)
	p.provider.endless(20)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Hang up"}))(t)
	stream := must(client.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Go on"}))(t)
	for stream.Next() {
		if _, ok := stream.Event().(*kasa.TokenEvent); ok {
			break
		}
	}
	stream.Close()
	eventually(t, "the provider call to be cancelled", 10*time.Second, p.provider.hungUp)
	eventually(t, "the reply to be stored as stopped", 10*time.Second, func() bool {
		page := must(client.Chat.Messages.List(p.ctx(), session.ID, kasa.PageParams{}))(t)
		last := page.Messages[len(page.Messages)-1]
		return last.Role == "assistant" && last.Status == kasa.StatusStopped
	})
}

func TestPlatformAResumableReplyGoesOnAfterHangingUpAndIsFollowedAgain(t *testing.T) {
	p := onPlatform(t)
	p.provider.endless(20)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Resume"}))(t)
	first := must(client.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Tell me everything", Resumable: true}))(t)
	for first.Next() {
		if token, ok := first.Event().(*kasa.TokenEvent); ok && token.Text == "w2 " {
			break
		}
	}
	first.Close()
	messageID := first.AssistantMessageID()
	if messageID == "" {
		t.Fatal("no message id")
	}

	followed := must(client.Chat.Messages.Resume(p.ctx(), session.ID, messageID))(t)
	defer followed.Close()
	var events []kasa.ReplyEvent
	for followed.Next() {
		events = append(events, followed.Event())
		if _, ok := followed.Event().(*kasa.TokenEvent); ok && len(tokensOf(events)) == 2 {
			// Nobody hung up on the provider: the reply was being written all along.
			if p.provider.hungUp() {
				t.Fatal("the provider call was cancelled by the hang-up")
			}
			must(followed.Stop(p.ctx()))(t)
		}
	}
	if err := followed.Err(); err != nil {
		t.Fatal(err)
	}
	if meta, ok := events[0].(*kasa.MetaEvent); !ok || meta.AssistantMessageID != messageID {
		t.Fatalf("first event %#v", events[0])
	}
	// The text so far arrives first, from the first word on; then the reply went on being written.
	tokens := tokensOf(events)
	if len(tokens) < 2 || !strings.HasPrefix(tokens[0], "w1 w2 ") {
		t.Fatalf("tokens %q", tokens)
	}
	done, ok := events[len(events)-1].(*kasa.DoneEvent)
	if !ok || done.Message.Status != kasa.StatusStopped || done.Message.Content != strings.Join(tokens, "") {
		t.Fatalf("last event %#v", events[len(events)-1])
	}
	eventually(t, "the provider call to be cancelled", 10*time.Second, p.provider.hungUp)
}

func TestPlatformResumingAFinishedReplyGivesItAtOnceAndAnUnknownOneIsA404(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "ticha", Title: "Done already"}))(t)
	reply := must(client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "What is 2 + 2?"}))(t)

	followed := must(client.Chat.Messages.Resume(p.ctx(), session.ID, reply.ID))(t)
	defer followed.Close()
	var events []kasa.ReplyEvent
	for followed.Next() {
		events = append(events, followed.Event())
	}
	if err := followed.Err(); err != nil {
		t.Fatal(err)
	}
	if len(events) != 3 {
		t.Fatalf("events %#v", events)
	}
	if meta, ok := events[0].(*kasa.MetaEvent); !ok || meta.AssistantMessageID != reply.ID || meta.UserMessageID != reply.UserMessageID {
		t.Fatalf("first event %#v", events[0])
	}
	if tokens := tokensOf(events); len(tokens) != 1 || tokens[0] != defaultText {
		t.Fatalf("tokens %q", tokens)
	}
	if done, ok := events[2].(*kasa.DoneEvent); !ok || done.Message.ID != reply.ID || done.Message.Status != kasa.StatusComplete {
		t.Fatalf("last event %#v", events[2])
	}
	again := must(client.Chat.Messages.Resume(p.ctx(), session.ID, reply.ID))(t)
	if final := must(again.FinalMessage())(t); final.ID != reply.ID || final.Content != defaultText {
		t.Fatalf("final %+v", final)
	}

	_, err := client.Chat.Messages.Resume(p.ctx(), session.ID, unknownSession)
	if notFound := expectError[*kasa.NotFoundError](t, err); notFound.Status != 404 || notFound.Code != "not_found" {
		t.Fatalf("%+v", notFound.APIError)
	}
	_, err = client.Chat.Messages.Resume(p.ctx(), session.ID, "not-an-id")
	if bad := expectError[*kasa.BadRequestError](t, err); bad.Code != "validation_failed" {
		t.Fatalf("%+v", bad.APIError)
	}
}

// The OpenAI-compatible API.

func TestPlatformCompletesWholeAndStreamedAndListsTheModels(t *testing.T) {
	p := onPlatform(t)
	p.provider.answer("Me din de Ama", 2)
	client := p.signedIn()
	temperature := 0.2
	completion := must(client.Completions.Create(p.ctx(), kasa.CompletionParams{
		Model: "merla", Messages: []kasa.ChatMessage{kasa.UserMessage("Hi")}, Temperature: &temperature,
	}))(t)
	if completion.Object != "chat.completion" || completion.Choices[0].Message.Content != "Me din de Ama" || completion.Usage.CompletionTokens <= 0 {
		t.Fatalf("completion %+v", completion)
	}

	stream := must(client.Completions.Stream(p.ctx(), kasa.CompletionParams{
		Model: "kasa", Messages: []kasa.ChatMessage{kasa.UserMessage("Hi")}, IncludeUsage: true,
	}))(t)
	defer stream.Close()
	var text strings.Builder
	var usage *kasa.CompletionUsage
	for stream.Next() {
		chunk := stream.Chunk()
		if chunk.Object != "chat.completion.chunk" {
			t.Fatalf("chunk %+v", chunk)
		}
		if len(chunk.Choices) > 0 {
			text.WriteString(chunk.Choices[0].Delta.Content)
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if text.String() != "Me din de Ama" || usage == nil || usage.CompletionTokens <= 0 {
		t.Fatalf("%q %+v", text.String(), usage)
	}

	models := must(client.Completions.Models(p.ctx()))(t)
	ids := map[string]bool{}
	for _, model := range models.Data {
		ids[model.ID] = true
		// Each model carries its persona's name and expertise.
		if model.Name == "" || model.Description == "" {
			t.Errorf("model without a name or description: %+v", model)
		}
	}
	if !ids["kasa"] || !ids["dokta"] {
		t.Fatalf("models %+v", models.Data)
	}
}

func TestPlatformCompletionsWorkWithAnAPIKey(t *testing.T) {
	p := onPlatform(t)
	secret := must(p.signedIn().APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Completions", Scopes: []string{kasa.ScopeChat}}))(t).Secret
	answer := must(p.client(kasa.WithAPIKey(secret)).Completions.Create(p.ctx(), kasa.CompletionParams{
		Model: "kasa", Messages: []kasa.ChatMessage{kasa.UserMessage("Hi")},
	}))(t)
	if answer.Choices[0].Message.Content != defaultText {
		t.Fatalf("%+v", answer)
	}
}

func TestPlatformAnUnknownModelIsA404AndNoMessagesA400(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	_, err := client.Completions.Create(p.ctx(), kasa.CompletionParams{Model: "no-such-persona", Messages: []kasa.ChatMessage{kasa.UserMessage("Hi")}})
	expectError[*kasa.NotFoundError](t, err)
	_, err = client.Completions.Stream(p.ctx(), kasa.CompletionParams{Model: "kasa"})
	expectError[*kasa.BadRequestError](t, err)
}

// API keys.

func TestPlatformACreatedKeyWorksAsTheAPIKeyAndStopsWorkingOnceRevoked(t *testing.T) {
	p := onPlatform(t)
	owner := p.signedIn()
	created := must(owner.APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "SDK test", Scopes: []string{kasa.ScopeChat}, ExpiresInDays: 30}))(t)
	if !strings.HasPrefix(created.Secret, "ksk_") || len(created.Key.Scopes) != 1 || created.Key.Scopes[0] != "chat" || created.Key.ExpiresAt == nil {
		t.Fatalf("created %+v", created)
	}
	keyed := p.client(kasa.WithAPIKey(created.Secret))
	if personas := must(keyed.Personas.List(p.ctx()))(t); len(personas) < 6 {
		t.Fatalf("%d personas", len(personas))
	}
	session := must(keyed.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "massa", Title: "Via key"}))(t)
	stream := must(keyed.Chat.Messages.Stream(p.ctx(), session.ID, kasa.MessageParams{Content: "Hello"}))(t)
	if reply := must(stream.FinalMessage())(t); reply.Content != defaultText {
		t.Fatalf("reply %+v", reply)
	}
	// The key acts for its owner.
	owned := must(owner.Chat.Sessions.List(p.ctx(), kasa.PageParams{}))(t)
	if len(owned.Sessions) == 0 || owned.Sessions[0].ID != session.ID {
		t.Fatalf("the owner's sessions %+v", owned)
	}
	// A chat-only key may not speak.
	_, err := keyed.Voice.Synthesize(p.ctx(), kasa.SynthesizeParams{Text: "Akwaaba"})
	if denied := expectError[*kasa.PermissionDeniedError](t, err); denied.Code != "forbidden" {
		t.Fatalf("%+v", denied.APIError)
	}

	find := func() kasa.APIKey {
		for _, key := range must(owner.APIKeys.List(p.ctx()))(t) {
			if key.ID == created.Key.ID {
				return key
			}
		}
		t.Fatal("the key is not listed")
		return kasa.APIKey{}
	}
	if listed := find(); listed.Name != "SDK test" || listed.RevokedAt != nil || strings.Contains(listed.MaskedKey, created.Secret) {
		t.Fatalf("listed %+v", listed)
	}
	if err := owner.APIKeys.Revoke(p.ctx(), created.Key.ID); err != nil {
		t.Fatal(err)
	}
	if revoked := find(); revoked.RevokedAt == nil {
		t.Fatalf("revoked %+v", revoked)
	}
	if err := owner.APIKeys.Revoke(p.ctx(), created.Key.ID); err != nil {
		t.Fatalf("revoking again: %v", err)
	}
	once := keyed.WithOptions(kasa.WithMaxRetries(0))
	eventually(t, "the revoked key to be refused", 30*time.Second, func() bool {
		_, err := once.Personas.List(p.ctx())
		return errors.Is(err, kasa.ErrUnauthenticated)
	})
}

func TestPlatformATeamOwnerCreatesAKeyOfTheTeam(t *testing.T) {
	p := onPlatform(t)
	owner := p.enterprise()
	teamID := p.createTeam(owner, "Tamale Tech")

	created := must(owner.APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Team key", Scopes: []string{kasa.ScopeChat}, Team: true}))(t)
	if created.Key.TeamID != teamID || !strings.HasPrefix(created.Secret, "ksk_") {
		t.Fatalf("team key %+v, want team %q", created.Key, teamID)
	}
	found := false
	for _, key := range must(owner.APIKeys.List(p.ctx()))(t) {
		if key.ID == created.Key.ID {
			found = key.TeamID == teamID
		}
	}
	if !found {
		t.Fatalf("the team key is not listed with its team")
	}
	// A personal key of the same person stays personal.
	if personal := must(owner.APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Mine"}))(t); personal.Key.TeamID != "" {
		t.Fatalf("personal key %+v", personal.Key)
	}
	if personas := must(p.client(kasa.WithAPIKey(created.Secret)).Personas.List(p.ctx()))(t); len(personas) < 6 {
		t.Fatalf("personas with the team key: %d", len(personas))
	}

	// Someone in no team may not make a team key.
	_, err := p.signedIn().APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Not mine", Team: true})
	expectError[*kasa.PermissionDeniedError](t, err)
}

func TestPlatformABadKeyNameIsA400AndAnUnknownKeyA404(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	_, err := client.APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "", ExpiresInDays: 1000})
	bad := expectError[*kasa.BadRequestError](t, err)
	fields := map[string]bool{}
	for _, field := range bad.FieldErrors() {
		fields[field.Path] = true
	}
	if !fields["name"] || !fields["expiresInDays"] {
		t.Fatalf("fields %v", bad.FieldErrors())
	}
	expectError[*kasa.NotFoundError](t, client.APIKeys.Revoke(p.ctx(), unknownSession))
}

// Speech, languages and geo.

func TestPlatformListsGetsAndDetectsLanguages(t *testing.T) {
	p := onPlatform(t)
	client := p.client()
	catalogue := must(client.Languages.List(p.ctx(), kasa.CapabilityDetect))(t)
	if catalogue.Count <= 30 || catalogue.Count != len(catalogue.Languages) {
		t.Fatalf("%d languages, %d listed", catalogue.Count, len(catalogue.Languages))
	}
	for _, language := range catalogue.Languages {
		if !language.Capabilities.Detect {
			t.Fatalf("%s cannot be detected", language.Code)
		}
	}
	if twi := must(client.Languages.Get(p.ctx(), "twi"))(t); twi.Code != "tw" {
		t.Fatalf("twi = %+v", twi)
	}
	detected := must(client.Languages.Detect(p.ctx(), "Bonjour, comment allez-vous aujourd’hui ?", nil))(t)
	if detected.Language != "fr" || detected.Confidence <= 0 || detected.Confidence > 1 {
		t.Fatalf("detected %+v", detected)
	}
	hinted := must(client.Languages.Detect(p.ctx(), "Habari ya asubuhi, rafiki yangu", &kasa.DetectHints{BrowserLocale: "en-KE"}))(t)
	if hinted.Language != "sw" {
		t.Fatalf("hinted %+v", hinted)
	}
	_, err := client.Languages.Get(p.ctx(), "zz")
	expectError[*kasa.NotFoundError](t, err)
	_, err = client.Languages.Detect(p.ctx(), "", nil)
	expectError[*kasa.BadRequestError](t, err)
}

func TestPlatformListsVoicesAndLooksUpAddresses(t *testing.T) {
	p := onPlatform(t)
	client := p.client()
	voices := must(client.Voice.Voices(p.ctx(), ""))(t)
	if len(voices) == 0 {
		t.Fatal("no voices")
	}
	for _, voice := range voices {
		if voice.ID == "" || voice.Name == "" || voice.Language == "" || voice.Engine == "" {
			t.Fatalf("voice %+v", voice)
		}
	}
	for _, voice := range must(client.Voice.Voices(p.ctx(), "sw"))(t) {
		if voice.Language != "sw" {
			t.Fatalf("voice %+v", voice)
		}
	}
	accra := must(client.Geo.Lookup(p.ctx(), "41.66.199.1"))(t)
	if !accra.Found || accra.Country != "GH" || accra.Currency != "GHS" {
		t.Fatalf("accra %+v", accra)
	}
	private := must(client.Geo.Lookup(p.ctx(), "10.0.0.1"))(t)
	if private.IP != "10.0.0.1" || private.Found {
		t.Fatalf("private %+v", private)
	}
	// The loopback address: an unknown place, not an error.
	if own := must(client.Geo.Lookup(p.ctx(), ""))(t); own.Found {
		t.Fatalf("own %+v", own)
	}
	_, err := client.Geo.Lookup(p.ctx(), "not-an-ip")
	expectError[*kasa.BadRequestError](t, err)
}

func isMP3(data []byte) bool {
	return bytes.HasPrefix(data, []byte("ID3")) || (len(data) > 1 && data[0] == 0xFF && data[1]&0xE0 == 0xE0)
}

func TestPlatformSpeaksForProAsAudioBytesAndAsAStoredAddress(t *testing.T) {
	p := onPlatform(t)
	pro := p.pro()
	mp3 := must(pro.Voice.Synthesize(p.ctx(), kasa.SynthesizeParams{Text: "Akwaaba. Welcome to Kasa.", Language: "en"}))(t)
	if len(mp3.Data) <= 1000 || mp3.ContentType != "audio/mpeg" || !isMP3(mp3.Data) || mp3.AudioURL == "" {
		t.Fatalf("%d bytes of %s at %q", len(mp3.Data), mp3.ContentType, mp3.AudioURL)
	}
	// The stored copy, complete once the stream has ended, is the same audio.
	if _, stored := p.get(mp3.AudioURL); !bytes.Equal(stored, mp3.Data) {
		t.Fatalf("the stored copy has %d bytes, the answer %d", len(stored), len(mp3.Data))
	}

	synthesis := must(pro.Voice.SynthesizeToURL(p.ctx(), kasa.SynthesizeParams{Text: "Habari yako?", Language: "sw"}))(t)
	if synthesis.Duration <= 0 || synthesis.AudioURL == "" {
		t.Fatalf("synthesis %+v", synthesis)
	}
	// The address needs no credential.
	resp, audio := p.get(synthesis.AudioURL)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "audio/") || len(audio) <= 1000 {
		t.Fatalf("%d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(audio))
	}
}

func TestPlatformSpeaksAPublicSampleForAnyoneAlsoWhenThePlatformAnswersFromItsCache(t *testing.T) {
	p := onPlatform(t)
	// The SDK has no call for the landing page's samples; their texts are read aloud for anyone.
	_, raw := p.get("/api/voice/samples")
	var samples struct {
		Samples []struct{ Text, Language string } `json:"samples"`
	}
	if err := json.Unmarshal(raw, &samples); err != nil || len(samples.Samples) == 0 {
		t.Fatalf("samples %s (%v)", raw, err)
	}
	sample := samples.Samples[0]
	anonymous := p.client()
	first := must(anonymous.Voice.Synthesize(p.ctx(), kasa.SynthesizeParams{Text: sample.Text, Language: sample.Language}))(t)
	// Made before: the platform answers with the stored copy's address, which the SDK fetches.
	again := must(anonymous.Voice.Synthesize(p.ctx(), kasa.SynthesizeParams{Text: sample.Text, Language: sample.Language}))(t)
	if len(first.Data) <= 1000 || !bytes.Equal(again.Data, first.Data) || again.AudioURL != first.AudioURL {
		t.Fatalf("first %d bytes at %q, again %d bytes at %q", len(first.Data), first.AudioURL, len(again.Data), again.AudioURL)
	}
}

func TestPlatformSpeechOnTheFreePlanIsA403NamingThePlan(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	_, err := client.Voice.Synthesize(p.ctx(), kasa.SynthesizeParams{Text: "Akwaaba"})
	denied := expectError[*kasa.PermissionDeniedError](t, err)
	if denied.Status != 403 || !strings.Contains(denied.Message, "Pro") {
		t.Fatalf("%+v", denied.APIError)
	}
	_, err = client.Voice.Synthesize(p.ctx(), kasa.SynthesizeParams{Text: ""})
	expectError[*kasa.BadRequestError](t, err)
}

// Analytics.

func TestPlatformAnalyticsCountTheCallersSessionsMessagesAndCalls(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "nana", Title: "Kumasi"}))(t)
	must(client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "Hello there", Language: "en"}))(t)

	eventually(t, "the summary to count the session and the message", 30*time.Second, func() bool {
		summary := must(client.Analytics.Summary(p.ctx()))(t)
		return summary.Sessions == 1 && summary.Messages >= 1 && summary.PersonaUsage["nana"] == 1 && summary.LanguageUsage["en"] >= 1
	})
	summary := must(client.Analytics.Summary(p.ctx()))(t)
	if summary.Usage.Quota.Period == "" || summary.Usage.Quota.Limit == nil || *summary.Usage.Quota.Limit != 1000 {
		t.Fatalf("quota %+v", summary.Usage.Quota)
	}
	eventually(t, "the session to be listed with its messages", 30*time.Second, func() bool {
		sessions := must(client.Analytics.Sessions(p.ctx(), 10))(t)
		return len(sessions) == 1 && sessions[0].ID == session.ID && sessions[0].MessageCount >= 2
	})
	eventually(t, "the calls to be counted", 30*time.Second, func() bool {
		usage := must(client.Analytics.Usage(p.ctx(), kasa.UsageParams{Days: 7}))(t)
		return usage.TotalCalls > 0 && len(usage.Days) == 7 && len(usage.ByEndpoint) > 0
	})
}

func TestPlatformAnalyticsTakeAKeyWithTheAnalyticsScopeOnly(t *testing.T) {
	p := onPlatform(t)
	owner := p.signedIn()
	analytics := must(owner.APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Dashboards", Scopes: []string{kasa.ScopeAnalytics}}))(t)
	chat := must(owner.APIKeys.Create(p.ctx(), kasa.APIKeyCreateParams{Name: "Chat only", Scopes: []string{kasa.ScopeChat}}))(t)

	keyed := p.client(kasa.WithAPIKey(analytics.Secret))
	if summary := must(keyed.Analytics.Summary(p.ctx()))(t); summary.Usage.Quota.Period == "" {
		t.Fatalf("summary %+v", summary)
	}
	must(keyed.Analytics.Usage(p.ctx(), kasa.UsageParams{KeyID: chat.Key.ID}))(t)
	_, err := keyed.Analytics.Usage(p.ctx(), kasa.UsageParams{KeyID: unknownSession})
	expectError[*kasa.NotFoundError](t, err)

	_, err = p.client(kasa.WithAPIKey(chat.Secret)).Analytics.Summary(p.ctx())
	expectError[*kasa.PermissionDeniedError](t, err)
}
