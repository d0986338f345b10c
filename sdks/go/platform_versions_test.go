package kasa_test

import (
	"reflect"
	"testing"

	kasa "github.com/kasa-ai/kasa-go"
)

// storedContents gives a page of stored messages as "role: content" lines.
func storedContents(messages []kasa.StoredMessage) []string {
	var out []string
	for _, message := range messages {
		out = append(out, message.Role+": "+message.Content)
	}
	return out
}

func TestPlatformEditsAMessageRegeneratesTheAnswerAndShowsTheFirstVersionAgain(t *testing.T) {
	p := onPlatform(t)
	client := p.signedIn()
	session := must(client.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Versions"}))(t)
	p.provider.answer("Accra.", 0)
	first := must(client.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "Capital of Ghana?"}))(t)

	// The question edited, its answer streamed.
	p.provider.answer("Abuja is the capital.", 2)
	stream := must(client.Chat.Messages.EditStream(p.ctx(), session.ID, first.UserMessageID, kasa.EditParams{Content: "Capital of Nigeria?"}))(t)
	defer stream.Close()
	var events []kasa.ReplyEvent
	for stream.Next() {
		events = append(events, stream.Event())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	meta, ok := events[0].(*kasa.MetaEvent)
	if !ok || meta.UserMessageID == "" || meta.UserMessageID == first.UserMessageID {
		t.Fatalf("first event %#v", events[0])
	}
	done, ok := events[len(events)-1].(*kasa.DoneEvent)
	if !ok || done.Message.Content != "Abuja is the capital." || done.Message.Status != kasa.StatusComplete ||
		done.Message.ID != meta.AssistantMessageID || done.Message.UserMessageID != meta.UserMessageID {
		t.Fatalf("last event %#v", events[len(events)-1])
	}
	edited := done.Message
	page := must(client.Chat.Messages.List(p.ctx(), session.ID, kasa.PageParams{}))(t)
	if got, want := storedContents(page.Messages), []string{"user: Capital of Nigeria?", "assistant: Abuja is the capital."}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after the edit %q", got)
	}
	wantQuestion := &kasa.MessageVersion{Index: 1, Count: 2, SiblingIDs: []string{first.UserMessageID, edited.UserMessageID}}
	if question := page.Messages[0]; question.ID != edited.UserMessageID || !reflect.DeepEqual(question.Version, wantQuestion) {
		t.Fatalf("the edited question %+v (version %+v)", question, question.Version)
	}

	// The answer regenerated, whole.
	p.provider.answer("Abuja, since 1991.", 0)
	second := must(client.Chat.Messages.Regenerate(p.ctx(), session.ID, edited.ID, kasa.RegenerateParams{}))(t)
	wantAnswer := &kasa.MessageVersion{Index: 1, Count: 2, SiblingIDs: []string{edited.ID, second.ID}}
	if second.Content != "Abuja, since 1991." || second.UserMessageID != edited.UserMessageID || !reflect.DeepEqual(second.Version, wantAnswer) {
		t.Fatalf("regenerated %+v (version %+v)", second, second.Version)
	}

	// Editing an answer, or regenerating a question, is a 400 naming the message.
	_, err := client.Chat.Messages.Edit(p.ctx(), session.ID, second.ID, kasa.EditParams{Content: "x"})
	if bad := expectError[*kasa.BadRequestError](t, err); bad.Code != "validation_failed" || bad.RequestID == "" {
		t.Fatalf("%+v", bad.APIError)
	}
	_, err = client.Chat.Messages.RegenerateStream(p.ctx(), session.ID, edited.UserMessageID, kasa.RegenerateParams{})
	expectError[*kasa.BadRequestError](t, err)

	// Back to the first question: its own answer, kept, and so it stays for later reads.
	shown := must(client.Chat.Messages.SelectVersion(p.ctx(), session.ID, first.UserMessageID, 10))(t)
	want := []string{"user: Capital of Ghana?", "assistant: Accra."}
	if got := storedContents(shown.Messages); shown.ID != session.ID || !reflect.DeepEqual(got, want) {
		t.Fatalf("shown %+v", shown)
	}
	wantFirst := &kasa.MessageVersion{Index: 0, Count: 2, SiblingIDs: []string{first.UserMessageID, edited.UserMessageID}}
	if question := shown.Messages[0]; question.ID != first.UserMessageID || !reflect.DeepEqual(question.Version, wantFirst) {
		t.Fatalf("the first question %+v (version %+v)", question, question.Version)
	}
	again := must(client.Chat.Sessions.Get(p.ctx(), session.ID, kasa.PageParams{}))(t)
	if got := storedContents(again.Messages); !reflect.DeepEqual(got, want) || again.Messages[1].ID != first.ID {
		t.Fatalf("read again %q", got)
	}

	// Someone else's conversation has no versions to show.
	_, err = p.signedIn().Chat.Messages.SelectVersion(p.ctx(), session.ID, first.UserMessageID, 0)
	expectError[*kasa.NotFoundError](t, err)
}
