package kasa_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	kasa "github.com/kasa-ai/kasa-go"
)

func ExampleNewClient() {
	client := kasa.NewClient(
		kasa.WithAPIKey(os.Getenv("KASA_API_KEY")),
		kasa.WithBaseURL("https://kasa.example"),
		kasa.WithTimeout(30*time.Second),
	)
	ctx := context.Background()
	session, err := client.Chat.Sessions.Create(ctx, kasa.SessionCreateParams{PersonaID: "nana", Title: "Weekend in Kumasi"})
	if err != nil {
		log.Fatal(err)
	}
	reply, err := client.Chat.Messages.Send(ctx, session.ID, kasa.MessageParams{Content: "What should I see at Kejetia?", Language: "auto"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(reply.Content)
}

func ExampleMessagesService_Stream() {
	client := kasa.NewClient()
	ctx := context.Background()
	stream, err := client.Chat.Messages.Stream(ctx, "0123456789abcdef01234567", kasa.MessageParams{Content: "Tell me about Kejetia market"})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	for stream.Next() {
		switch event := stream.Event().(type) {
		case *kasa.MetaEvent:
			fmt.Println("answered by", event.Provider)
		case *kasa.TokenEvent:
			fmt.Print(event.Text)
		case *kasa.DoneEvent:
			fmt.Println("\nstored as", event.Message.ID, event.Message.Status)
		}
	}
	if err := stream.Err(); err != nil {
		log.Fatal(err)
	}
}

func ExampleMessagesService_Regenerate() {
	client := kasa.NewClient()
	ctx := context.Background()
	sessionID := "0123456789abcdef01234567"
	first, err := client.Chat.Messages.Send(ctx, sessionID, kasa.MessageParams{Content: "Capital of Ghana?"})
	if err != nil {
		log.Fatal(err)
	}
	// Another answer to the same question; the first one is kept as its other version.
	again, err := client.Chat.Messages.Regenerate(ctx, sessionID, first.ID, kasa.RegenerateParams{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(again.Content, again.Version.Index+1, "of", again.Version.Count)
	// Back to the first answer: the conversation continues from it.
	shown, err := client.Chat.Messages.SelectVersion(ctx, sessionID, first.ID, 20)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(shown.Messages), "messages")
}

func ExampleCompletionsService_Stream() {
	client := kasa.NewClient()
	stream, err := client.Completions.Stream(context.Background(), kasa.CompletionParams{
		Model:    "kasa",
		Messages: []kasa.ChatMessage{kasa.UserMessage("Akwaaba! What can you do?")},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	for stream.Next() {
		if chunk := stream.Chunk(); len(chunk.Choices) > 0 {
			fmt.Print(chunk.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil {
		log.Fatal(err)
	}
}

func ExampleAPIError() {
	client := kasa.NewClient()
	_, err := client.Chat.Sessions.Get(context.Background(), "0123456789abcdef01234567", kasa.PageParams{})
	var limited *kasa.RateLimitError
	var apiErr *kasa.APIError
	switch {
	case errors.Is(err, kasa.ErrNotFound):
		fmt.Println("no such session")
	case errors.As(err, &limited):
		fmt.Println("slow down for", limited.RetryAfter, "quota used up:", limited.QuotaExceeded())
	case errors.As(err, &apiErr):
		fmt.Println(apiErr.Status, apiErr.Code, apiErr.Message, apiErr.RequestID)
	}
}
