// Package kasa is the Go client of the Kasa API: accounts, personas, chat sessions and messages (edited and
// regenerated into versions), replies streamed token by token (and stopped, or followed again after a dropped
// connection), read-only links to conversations, the OpenAI-compatible chat completions (whole or streamed) and models, speech, videos, the
// language catalogue and detection, geo lookup, API keys and usage analytics. It uses the standard library only.
//
//	client := kasa.NewClient(kasa.WithAPIKey(os.Getenv("KASA_API_KEY")), kasa.WithBaseURL("https://kasa.example"))
//	session, err := client.Chat.Sessions.Create(ctx, kasa.SessionCreateParams{PersonaID: "nana", Title: "Kumasi"})
//	if err != nil {
//		return err
//	}
//	stream, err := client.Chat.Messages.Stream(ctx, session.ID, kasa.MessageParams{Content: "Akwaaba!"})
//	if err != nil {
//		return err
//	}
//	defer stream.Close()
//	for stream.Next() {
//		if token, ok := stream.Event().(*kasa.TokenEvent); ok {
//			fmt.Print(token.Text)
//		}
//	}
//	if err := stream.Err(); err != nil {
//		return err
//	}
//
// Every call takes a context.Context. A failed call returns an error that is, or wraps, an *APIError (Status,
// Code, Message, RequestID); its kind is a type (*NotFoundError, *RateLimitError, ...) for errors.As and a
// sentinel (ErrNotFound, ErrRateLimited, ...) for errors.Is. Calls that are safe to repeat are retried a bounded
// number of times after a 429, a 502, 503 or 504, a failed connection or a timeout, waiting what Retry-After asks
// or an exponential back-off with jitter (see RetryPolicy).
package kasa
