// The SDK catalogue of the SDKs tab (spec section 3: six SDKs), all Kasa's own packages: sdks/js (JavaScript, and
// Node.js with the same @kasa/sdk), sdks/react, sdks/python, sdks/go and sdks/rust in the repository. No download counts are shown: Kasa does not publish any.

export type SdkKind = 'kasa' | 'openai-compatible';

export interface SdkLink {
  label: string;
  /** An address in the product (`?tab=docs`, `/api/openapi.json`) or the library's own documentation. */
  href: string;
  external?: boolean;
}

export interface SdkEntry {
  id: string;
  name: string;
  language: string;
  /** Two or three letters shown in the card's badge. */
  icon: string;
  version: string;
  packageName: string;
  /** What installing it brings along, in words (no invented byte counts). */
  size: string;
  description: string;
  installCommand: string;
  features: string[];
  lastUpdated: string;
  kind: SdkKind;
  /** Source with `{{BASE_URL}}` where the platform's address goes and `{{API_KEY}}` where the key goes. */
  quickStart: string;
  /** Where the package's own README lives in the Kasa repository, or the library's README. */
  readme: string;
  links: SdkLink[];
}

const DOCS_LINKS: SdkLink[] = [
  { label: 'API reference (Docs tab)', href: '?tab=docs' },
  { label: 'OpenAPI document', href: '/api/openapi.json' },
];

export const SDKS: readonly SdkEntry[] = [
  {
    id: 'javascript',
    name: 'JavaScript SDK',
    language: 'JavaScript',
    icon: 'JS',
    version: '1.3.0',
    packageName: '@kasa/sdk',
    size: 'No runtime dependencies (uses the built-in fetch)',
    description: 'Typed client for browsers and Node.js: personas, chat with streamed replies, voice and languages.',
    installCommand: 'npm install @kasa/sdk',
    features: [
      'TypeScript types from Kasa’s contracts',
      'Streamed replies (Server-Sent Events)',
      'OpenAI-compatible chat completions',
      'Voice synthesis and the language catalogue',
      'Errors with status, code and request id',
    ],
    lastUpdated: 'November 2026',
    kind: 'kasa',
    quickStart: `import { Kasa } from '@kasa/sdk';

const kasa = new Kasa({ baseUrl: '{{BASE_URL}}', apiKey: '{{API_KEY}}' });

const personas = await kasa.personas.list();
console.log(personas.map((p) => p.name));`,
    readme: 'sdks/js/README.md',
    links: DOCS_LINKS,
  },
  {
    id: 'react',
    name: 'React SDK',
    language: 'React',
    icon: 'Re',
    version: '1.1.8',
    packageName: '@kasa/react',
    size: 'Peer dependencies: @kasa/sdk, react, @tanstack/react-query',
    description: 'A provider and hooks on @tanstack/react-query for personas, chat, streamed replies and speech.',
    installCommand: 'npm install @kasa/react @kasa/sdk @tanstack/react-query',
    features: [
      'KasaProvider around a Kasa client (key or signed-in token)',
      'Hooks for personas, sessions and languages',
      'Streamed replies as React state',
      'Cached and deduplicated by react-query',
    ],
    lastUpdated: 'November 2026',
    kind: 'kasa',
    quickStart: `import { Kasa } from '@kasa/sdk';
import { KasaProvider, usePersonas } from '@kasa/react';

// In a page anyone can read, sign people in (new Kasa({ baseUrl, token })) rather than shipping an API key.
const kasa = new Kasa({ baseUrl: '{{BASE_URL}}', apiKey: '{{API_KEY}}' });

function Personas() {
  const { data = [] } = usePersonas();
  return <ul>{data.map((p) => <li key={p.id}>{p.name}</li>)}</ul>;
}

export function App() {
  return (
    <KasaProvider client={kasa}>
      <Personas />
    </KasaProvider>
  );
}`,
    readme: 'sdks/react/README.md',
    links: DOCS_LINKS,
  },
  {
    id: 'node',
    name: 'Node.js SDK',
    language: 'Node.js',
    icon: 'No',
    version: '1.3.0',
    packageName: '@kasa/sdk',
    size: 'The same package as the JavaScript SDK; Node.js 20 or later',
    description: 'The JavaScript SDK on servers: keep your API key on the server and stream replies to your users.',
    installCommand: 'npm install @kasa/sdk',
    features: [
      'Runs on Node.js 20+ with no extra dependencies',
      'Streamed replies you can pipe to your own clients',
      'OpenAI-compatible chat completions',
      'Timeouts and cancellation with AbortSignal',
    ],
    lastUpdated: 'November 2026',
    kind: 'kasa',
    quickStart: `// server.mjs: node server.mjs (KASA_API_KEY in the environment)
import { Kasa } from '@kasa/sdk';

const kasa = new Kasa({ baseUrl: '{{BASE_URL}}', apiKey: process.env.KASA_API_KEY ?? '{{API_KEY}}' });

const personas = await kasa.personas.list();
console.log(\`\${personas.length} personas\`);`,
    readme: 'sdks/js/README.md',
    links: DOCS_LINKS,
  },
  {
    id: 'python',
    name: 'Python SDK',
    language: 'Python',
    icon: 'Py',
    version: '1.3.0',
    packageName: 'kasa',
    size: 'One dependency, httpx; Python 3.11 or later',
    description:
      'Typed sync and asyncio clients: personas, chat with streamed replies you can stop and resume, shared links, voice, videos.',
    installCommand: 'pip install ./sdks/python',
    features: [
      'Blocking (Kasa) and asyncio (AsyncKasa) clients',
      'Streamed replies: stop, and resume after a dropped connection',
      'OpenAI-compatible chat completions and models',
      'Typed errors with status, code and request id',
      'Bounded retries that respect Retry-After, with idempotency keys',
    ],
    lastUpdated: 'November 2026',
    kind: 'kasa',
    quickStart: `import os
from kasa import Kasa, TokenEvent

kasa = Kasa(base_url="{{BASE_URL}}", api_key=os.environ.get("KASA_API_KEY", "{{API_KEY}}"))

session = kasa.chat.sessions.create(persona_id="nana", title="Weekend in Kumasi")
with kasa.chat.messages.stream(session["id"], "Akwaaba! What can you do?") as reply:
    for event in reply:
        if isinstance(event, TokenEvent):
            print(event.text, end="", flush=True)
print()`,
    readme: 'sdks/python/README.md',
    links: DOCS_LINKS,
  },
  {
    id: 'go',
    name: 'Go SDK',
    language: 'Go',
    icon: 'Go',
    version: '1.1.0',
    packageName: 'github.com/kasa-ai/kasa-go',
    size: 'The standard library only; Go 1.22 or later',
    description:
      'A context-aware client: personas, chat with streamed replies you can stop and resume, shared links, voice, videos, keys.',
    installCommand: 'go mod edit -replace github.com/kasa-ai/kasa-go=./sdks/go && go get github.com/kasa-ai/kasa-go',
    features: [
      'context.Context on every call, a Client safe for concurrent use',
      'Streamed replies read like a bufio.Scanner: stop, and resume after a dropped connection',
      'OpenAI-compatible chat completions and models',
      'Typed errors for errors.As and errors.Is, with status, code and request id',
      'Bounded retries that respect Retry-After and x-should-retry, with idempotency keys',
    ],
    lastUpdated: 'November 2026',
    kind: 'kasa',
    quickStart: `package main

import (
	"context"
	"fmt"
	"log"

	kasa "github.com/kasa-ai/kasa-go"
)

func main() {
	client := kasa.NewClient(kasa.WithBaseURL("{{BASE_URL}}"), kasa.WithAPIKey("{{API_KEY}}"))
	ctx := context.Background()

	session, err := client.Chat.Sessions.Create(ctx, kasa.SessionCreateParams{PersonaID: "nana", Title: "Weekend in Kumasi"})
	if err != nil {
		log.Fatal(err)
	}
	stream, err := client.Chat.Messages.Stream(ctx, session.ID, kasa.MessageParams{Content: "Akwaaba! What can you do?"})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	for stream.Next() {
		if token, ok := stream.Event().(*kasa.TokenEvent); ok {
			fmt.Print(token.Text)
		}
	}
	if err := stream.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println()
}`,
    readme: 'sdks/go/README.md',
    links: DOCS_LINKS,
  },
  {
    id: 'rust',
    name: 'Rust SDK',
    language: 'Rust',
    icon: 'Rs',
    version: '0.9.0',
    packageName: 'kasa',
    size: 'tokio, reqwest and serde (Debian’s packages build it offline)',
    description: 'An async client: personas, chat with streamed replies you can stop and resume, voice, video, keys.',
    installCommand: 'cargo add --path ./sdks/rust',
    features: [
      'Async on tokio; a Client that is cheap to clone and shares its connections',
      'Streamed replies with next().await or as a futures Stream: stop, and resume after a dropped connection',
      'OpenAI-compatible chat completions and models',
      'One error type with a kind, status, code and request id',
      'Bounded retries that respect Retry-After and x-should-retry, with idempotency keys',
    ],
    lastUpdated: 'November 2026',
    kind: 'kasa',
    quickStart: `use kasa::{Client, MessageParams, ReplyEvent, SessionCreateParams};

#[tokio::main]
async fn main() -> kasa::Result<()> {
    let client = Client::builder()
        .base_url("{{BASE_URL}}")
        .api_key("{{API_KEY}}")
        .build()?;

    let session = client
        .sessions()
        .create(&SessionCreateParams::new("nana", "Weekend in Kumasi"))
        .await?;
    let mut stream = client
        .messages()
        .stream(&session.id, &MessageParams::new("Akwaaba! What can you do?"))
        .await?;
    while let Some(event) = stream.next().await? {
        if let ReplyEvent::Token(token) = event {
            print!("{}", token.text);
        }
    }
    println!();
    Ok(())
}`,
    readme: 'sdks/rust/README.md',
    links: DOCS_LINKS,
  },
];

/** Puts the platform's address and a key (or a placeholder for it) into a sample. */
export function fillPlaceholders(source: string, values: { baseUrl: string; apiKey: string }): string {
  return source.replaceAll('{{BASE_URL}}', values.baseUrl).replaceAll('{{API_KEY}}', values.apiKey);
}
