package kasa_test

import (
	"regexp"
	"testing"

	kasa "github.com/kasa-ai/kasa-go"
)

var shareTokenPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`)

func contents(messages []kasa.Message) []string {
	var out []string
	for _, message := range messages {
		out = append(out, message.Role+": "+message.Content)
	}
	return out
}

func TestPlatformSharesAConversationThatAnyoneReadsUntilItsOwnerStopsSharing(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "ticha", Title: "Algebra"}))(t)
	must(client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "What is 2 + 2?"}))(t)

	link := must(client.Chat.Sessions.Share(p.ctx(), session.ID))(t)
	if !shareTokenPattern.MatchString(link.Token) || link.SessionID != session.ID || link.MessageCount != 2 ||
		link.Path != "/share/"+link.Token || link.SharedAt.IsZero() {
		t.Fatalf("link %+v", link)
	}
	if same := must(client.Chat.Sessions.GetShare(p.ctx(), session.ID))(t); *same != *link {
		t.Fatalf("read back %+v, shared %+v", same, link)
	}

	anyone := p.client()
	shared := must(anyone.Chat.Sessions.ReadShared(p.ctx(), link.Token))(t)
	want := []string{"user: What is 2 + 2?", "assistant: " + defaultText}
	if shared.Title != "Algebra" || shared.Persona.ID != "ticha" || shared.Persona.Name == "" || shared.Truncated ||
		len(shared.Messages) != 2 || contents(shared.Messages)[0] != want[0] || contents(shared.Messages)[1] != want[1] {
		t.Fatalf("shared %+v", shared)
	}

	// A message sent after sharing is not shown until the conversation is shared again, under the same link.
	must(client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "And 3 + 3?"}))(t)
	if n := len(must(anyone.Chat.Sessions.ReadShared(p.ctx(), link.Token))(t).Messages); n != 2 {
		t.Fatalf("%d messages before sharing again", n)
	}
	again := must(client.Chat.Sessions.Share(p.ctx(), session.ID))(t)
	if again.Token != link.Token || again.MessageCount != 4 || again.SharedAt.Before(link.SharedAt) {
		t.Fatalf("shared again %+v", again)
	}
	if n := len(must(anyone.Chat.Sessions.ReadShared(p.ctx(), link.Token))(t).Messages); n != 4 {
		t.Fatalf("%d messages after sharing again", n)
	}

	if err := client.Chat.Sessions.StopSharing(p.ctx(), session.ID); err != nil {
		t.Fatal(err)
	}
	_, err := anyone.Chat.Sessions.ReadShared(p.ctx(), link.Token)
	if gone := expectError[*kasa.NotFoundError](t, err); gone.Status != 404 || gone.Code != "not_found" {
		t.Fatalf("%+v", gone.APIError)
	}
	_, err = client.Chat.Sessions.GetShare(p.ctx(), session.ID)
	expectError[*kasa.NotFoundError](t, err)
	// Stopping again is not an error; sharing again makes a new link, and the old one stays dead.
	if err := client.Chat.Sessions.StopSharing(p.ctx(), session.ID); err != nil {
		t.Fatalf("stopping again: %v", err)
	}
	if renewed := must(client.Chat.Sessions.Share(p.ctx(), session.ID))(t); renewed.Token == link.Token {
		t.Fatal("the stopped link came back")
	}
	_, err = anyone.Chat.Sessions.ReadShared(p.ctx(), link.Token)
	expectError[*kasa.NotFoundError](t, err)
}

func TestPlatformSomeoneElsesSessionCannotBeSharedAndAnEmptyOneIsA400(t *testing.T) {
	p := onPlatform(t)
	owner, stranger := p.signedIn(), p.signedIn()
	session := must(owner.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Mine"}))(t)
	must(owner.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "Hello"}))(t)
	link := must(owner.Chat.Sessions.Share(p.ctx(), session.ID))(t)

	_, err := stranger.Chat.Sessions.Share(p.ctx(), session.ID)
	if notFound := expectError[*kasa.NotFoundError](t, err); notFound.Code != "not_found" {
		t.Fatalf("%+v", notFound.APIError)
	}
	_, err = stranger.Chat.Sessions.GetShare(p.ctx(), session.ID)
	expectError[*kasa.NotFoundError](t, err)
	expectError[*kasa.NotFoundError](t, stranger.Chat.Sessions.StopSharing(p.ctx(), session.ID))
	// The stranger's attempts changed nothing: the link still works.
	if shared := must(owner.Chat.Sessions.ReadShared(p.ctx(), link.Token))(t); shared.Title != "Mine" {
		t.Fatalf("shared %+v", shared)
	}

	empty := must(owner.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Nothing yet"}))(t)
	_, err = owner.Chat.Sessions.Share(p.ctx(), empty.ID)
	if bad := expectError[*kasa.BadRequestError](t, err); bad.Status != 400 {
		t.Fatalf("%+v", bad.APIError)
	}
	for _, token := range []string{"AAAAAAAAAAAAAAAAAAAAAA", "not a token"} {
		_, err = owner.Chat.Sessions.ReadShared(p.ctx(), token)
		expectError[*kasa.NotFoundError](t, err)
	}
}
