// The SDK catalogue of the SDKs tab (spec section 3: six SDKs), all Kasa's own packages: sdks/js (JavaScript, and
// Node.js with the same @kasa/sdk), sdks/react, sdks/python, sdks/go and sdks/rust in the repository. No download counts are shown: Kasa does not publish any.
// The install commands install what `npm run release:sdks` makes (sdks/README.md, "Releasing"): the npm packages from
// the registry they were published to, the Python wheel and the Rust crate from their files, kasa-go by its version
// from the Go module proxy (tests/integration/sdkRelease.test.ts runs them).

// The message ids of the tab panels' catalogue, read from the JSON itself: this file is plain data that Node.js
// tests import too (tests/e2e/examples.test.ts, and tests/integration/sdkQuickStarts.test.ts, which runs each quick
// start against the platform), so it stays clear of the React side of @kasa/i18n.
import type panelsEnglish from '../i18n/panels/en.json';

type SdksMessageId = keyof typeof panelsEnglish;

export type SdkKind = 'kasa' | 'openai-compatible';

export interface SdkLink {
  /** The link's text, by message id. */
  label: SdksMessageId;
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
  /** What installing it brings along, in words (no invented byte counts), by message id. */
  size: SdksMessageId;
  description: SdksMessageId;
  installCommand: string;
  features: SdksMessageId[];
  /** The month of its latest release, `2026-11`. */
  lastUpdated: string;
  kind: SdkKind;
  /**
   * Source with `{{BASE_URL}}` where the platform's address goes. Code that runs on a server reads the key from
   * `KASA_API_KEY`, never from its source; a browser sample has `{{API_KEY}}`.
   */
  quickStart: string;
  /** Where the package's own README lives in the Kasa repository, or the library's README. */
  readme: string;
  links: SdkLink[];
}

const PYTHON_VERSION = '1.7.0';
const GO_VERSION = '1.5.0';
const RUST_VERSION = '0.14.0';

const DOCS_LINKS: SdkLink[] = [
  { label: 'sdks.link.docs', href: '?tab=docs' },
  { label: 'sdks.link.openapi', href: '/api/openapi.json' },
];

export const SDKS: readonly SdkEntry[] = [
  {
    id: 'javascript',
    name: 'JavaScript SDK',
    language: 'JavaScript',
    icon: 'JS',
    version: '1.6.0',
    packageName: '@kasa/sdk',
    size: 'sdks.javascript.size',
    description: 'sdks.javascript.description',
    installCommand: 'npm install @kasa/sdk',
    features: [
      'sdks.javascript.feature.types',
      'sdks.javascript.feature.streaming',
      'sdks.javascript.feature.openai',
      'sdks.javascript.feature.voice',
      'sdks.javascript.feature.errors',
    ],
    lastUpdated: '2026-11',
    kind: 'kasa',
    quickStart: `// kasa.mjs: KASA_API_KEY=… node kasa.mjs (in a browser, sign people in rather than ship a key)
import { Kasa } from '@kasa/sdk';

const kasa = new Kasa({ baseUrl: process.env.KASA_BASE_URL ?? '{{BASE_URL}}', apiKey: process.env.KASA_API_KEY });

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
    version: '1.3.1',
    packageName: '@kasa/react',
    size: 'sdks.react.size',
    description: 'sdks.react.description',
    installCommand: 'npm install @kasa/react @kasa/sdk @tanstack/react-query',
    features: [
      'sdks.react.feature.provider',
      'sdks.react.feature.hooks',
      'sdks.react.feature.streaming',
      'sdks.react.feature.cache',
    ],
    lastUpdated: '2026-11',
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
    version: '1.6.0',
    packageName: '@kasa/sdk',
    size: 'sdks.node.size',
    description: 'sdks.node.description',
    installCommand: 'npm install @kasa/sdk',
    features: [
      'sdks.node.feature.runtime',
      'sdks.node.feature.streaming',
      'sdks.node.feature.openai',
      'sdks.node.feature.cancel',
    ],
    lastUpdated: '2026-11',
    kind: 'kasa',
    quickStart: `// server.mjs: KASA_API_KEY=… node server.mjs
import { Kasa } from '@kasa/sdk';

const kasa = new Kasa({ baseUrl: process.env.KASA_BASE_URL ?? '{{BASE_URL}}', apiKey: process.env.KASA_API_KEY });

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
    version: PYTHON_VERSION,
    packageName: 'kasa',
    size: 'sdks.python.size',
    description: 'sdks.python.description',
    installCommand: `pip install kasa-${PYTHON_VERSION}-py3-none-any.whl`,
    features: [
      'sdks.python.feature.clients',
      'sdks.python.feature.streaming',
      'sdks.python.feature.openai',
      'sdks.python.feature.errors',
      'sdks.python.feature.retries',
    ],
    lastUpdated: '2026-11',
    kind: 'kasa',
    quickStart: `# quickstart.py: KASA_API_KEY=… python3 quickstart.py
import os

from kasa import Kasa, TokenEvent

kasa = Kasa(base_url=os.environ.get("KASA_BASE_URL", "{{BASE_URL}}"), api_key=os.environ["KASA_API_KEY"])

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
    version: GO_VERSION,
    packageName: 'github.com/kasa-ai/kasa-go',
    size: 'sdks.go.size',
    description: 'sdks.go.description',
    installCommand: `go get github.com/kasa-ai/kasa-go@v${GO_VERSION}`,
    features: [
      'sdks.go.feature.context',
      'sdks.go.feature.streaming',
      'sdks.go.feature.openai',
      'sdks.go.feature.errors',
      'sdks.go.feature.retries',
    ],
    lastUpdated: '2026-11',
    kind: 'kasa',
    quickStart: `// main.go: KASA_API_KEY=… go run .
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	kasa "github.com/kasa-ai/kasa-go"
)

func main() {
	client := kasa.NewClient(kasa.WithBaseURL("{{BASE_URL}}"), kasa.WithAPIKey(os.Getenv("KASA_API_KEY")))
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
    version: RUST_VERSION,
    packageName: 'kasa',
    size: 'sdks.rust.size',
    description: 'sdks.rust.description',
    installCommand: `tar -xzf kasa-${RUST_VERSION}.crate && cargo add --path kasa-${RUST_VERSION} && cargo add tokio --features macros,rt-multi-thread`,
    features: [
      'sdks.rust.feature.async',
      'sdks.rust.feature.streaming',
      'sdks.rust.feature.openai',
      'sdks.rust.feature.errors',
      'sdks.rust.feature.retries',
    ],
    lastUpdated: '2026-11',
    kind: 'kasa',
    quickStart: `use std::env;

use kasa::{Client, MessageParams, ReplyEvent, SessionCreateParams};

#[tokio::main]
async fn main() -> kasa::Result<()> {
    let client = Client::builder()
        .base_url(env::var("KASA_BASE_URL").unwrap_or_else(|_| "{{BASE_URL}}".to_owned()))
        .api_key(env::var("KASA_API_KEY").unwrap_or_default())
        .build()?;

    let session = client.sessions().create(&SessionCreateParams::new("nana", "Weekend in Kumasi")).await?;
    let mut stream = client.messages().stream(&session.id, &MessageParams::new("Akwaaba! What can you do?")).await?;
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
