import { AFRICAN_LANGUAGES } from '@kasa/contracts';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_KNOWLEDGE_DIR, KnowledgeBase } from './knowledgeBase';
import { OfflineProvider, replyLanguageOf } from './offlineProvider';

const knowledge = KnowledgeBase.load();
const offline = new OfflineProvider(knowledge, 0);

/**
 * What a person must never be shown: how to configure or restart the platform (a developer's own KASA_API_KEY, in
 * the SDK notes, is theirs to set and fine).
 */
const OPERATOR_TALK = /CHAT_PROVIDERS|\b(?!KASA_)[A-Z]+_API_KEY|restart (it|the (chat )?service)|set [A-Z_]+=/;

async function streamed(system: string, question: string, personaId = 'kasa'): Promise<string> {
  const pieces: string[] = [];
  for await (const chunk of offline.stream({
    personaId,
    model: 'x',
    system,
    messages: [{ role: 'user', content: question }],
    signal: new AbortController().signal,
  })) {
    if (chunk.type === 'text') pieces.push(chunk.text);
  }
  return pieces.join('');
}

describe('the offline knowledge base', () => {
  it('loads every knowledge file as sections', () => {
    expect(knowledge.size).toBeGreaterThan(20);
  });

  it('names each SDK with the version its package has, so the notes never fall behind a release', () => {
    const root = path.resolve(__dirname, '../../../../..');
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    const js = (JSON.parse(read('sdks/js/package.json')) as { version: string }).version;
    const react = (JSON.parse(read('sdks/react/package.json')) as { version: string }).version;
    const python = /^version = "([^"]+)"/m.exec(read('sdks/python/pyproject.toml'))![1];
    const go = /const Version = "([^"]+)"/.exec(read('sdks/go/client.go'))![1];
    const rust = /^version = "([^"]+)"/m.exec(read('sdks/rust/Cargo.toml'))![1];
    expect(read('services/chat/knowledge/kasa-sdks.md')).toContain(
      `JavaScript ${js}, Python ${python}, React ${react}, Node.js ${js}, Go ${go} and Rust ${rust}`,
    );
  });

  it.each([
    ['What is Kasa?', 'massa', /voice-first, multilingual AI assistant platform/, /About Kasa › What is Kasa/],
    ['How much does the Pro plan cost?', 'massa', /Pro costs \$29 per month/, /plans and pricing › Plans and prices/],
    ['Which SDKs are available?', 'kasa', /JavaScript \d+\.\d+\.\d+, Python \d+\.\d+\.\d+/, /SDKs › Official SDKs/],
    ['How do I create a chat session with the API?', 'massa', /POST \/api\/chat\/sessions/, /Using the Kasa API/],
    ['Which languages does Kasa speak?', 'kasa', /120\+ languages/, /About Kasa › Languages/],
    ['Why do I get a 401 error?', 'massa', /401 means you are not signed in/, /Using the Kasa API/],
    ['How many API calls does the free plan include?', 'merla', /1,000 API calls per month/, /plans and pricing/],
    ['How do I stream replies?', 'massa', /text\/event-stream/, /Streaming replies/],
    ['How do I connect an AI provider?', 'massa', /18\+ AI providers/, /About Kasa › Offline mode/],
  ])(
    'answers %p (%s) from the notes, names its sources and shows no operator configuration',
    (question, persona, content, source) => {
      const reply = offline.answer(question, persona, false);
      expect(reply).toMatch(/^I am answering in offline mode: no AI provider is connected/);
      expect(reply).toMatch(content);
      expect(reply).toMatch(source);
      expect(reply).not.toMatch(OPERATOR_TALK);
    },
  );

  it.each([
    ['What is the capital of Mongolia?', 'kasa'],
    ['Can Kasa tell me who won the 1994 football world cup?', 'nana'],
    ['Write a sonnet about quantum chromodynamics', 'ticha'],
  ])(
    'answers a general question %p with a plain "I can’t answer that" and what it can tell about Kasa',
    (question, persona) => {
      const reply = offline.answer(question, persona, false);
      expect(reply).toMatch(/^I can't answer that without an AI provider/);
      expect(reply).toMatch(/do not cover that, so I would rather not guess/);
      expect(reply).toMatch(/Here is what I can tell you about Kasa: Kasa \("kasa" means "to speak" in Akan\)/);
      expect(reply).toMatch(/Offline, I can answer questions about Kasa itself/);
      expect(reply).not.toMatch(OPERATOR_TALK);
      expect(reply).not.toMatch(/Sources:/);
    },
  );

  it('greets without operator instructions', () => {
    const reply = offline.answer('Hello!', 'kasa', false);
    expect(reply).toMatch(/^Akwaaba! I am Kasa/);
    expect(reply).toMatch(/offline mode/);
    expect(reply).not.toMatch(OPERATOR_TALK);
  });

  it('no knowledge file tells people how to configure the platform', () => {
    for (const file of readdirSync(DEFAULT_KNOWLEDGE_DIR).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(DEFAULT_KNOWLEDGE_DIR, file), 'utf8');
      expect({ file, operatorTalk: OPERATOR_TALK.exec(text)?.[0] ?? null }).toEqual({ file, operatorTalk: null });
    }
  });

  it("keeps to the persona's field: dokta knows malaria, merla does not", () => {
    expect(offline.answer('What are the symptoms of malaria?', 'dokta', false)).toMatch(/fever, chills/);
    expect(offline.answer('What are the symptoms of malaria?', 'merla', false)).toMatch(/do not cover that/);
  });

  it('streams the reply word by word', async () => {
    const text = await streamed('', 'What is Kasa?');
    expect(text.split(/\s+/).length).toBeGreaterThan(30);
    expect(text).toBe(offline.answer('What is Kasa?', 'kasa', false));
  });
});

describe('the six African languages', () => {
  /** The site's list: the contracts package's, which the marketing pages and the portal render. */
  const siteNames = AFRICAN_LANGUAGES.map((l) => l.name);

  it('are the site’s: Twi, Hausa, Ga, Ewe, Yoruba and Swahili', () => {
    expect(siteNames).toEqual(['Twi', 'Hausa', 'Ga', 'Ewe', 'Yoruba', 'Swahili']);
  });

  it('are named exactly so by the knowledge base, never with Amharic or Zulu', () => {
    const sentences = readdirSync(DEFAULT_KNOWLEDGE_DIR)
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) => readFileSync(path.join(DEFAULT_KNOWLEDGE_DIR, f), 'utf8').split(/(?<=[.!?])\s+/))
      .filter((sentence) => /African languages/i.test(sentence));
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(/Amharic|Zulu/);
      for (const name of siteNames) expect(sentence).toMatch(new RegExp(`\\b${name}\\b`));
    }
    const languages = knowledge.find('Languages');
    expect(languages?.text).toContain(`six African languages: ${siteNames.slice(0, -1).join(', ')} and Swahili`);
  });

  it('are what the offline answer about languages says', () => {
    const reply = offline.answer('Which African languages does Kasa speak?', 'kasa', false);
    for (const name of siteNames) expect(reply).toMatch(new RegExp(`\\b${name}\\b`));
    expect(reply).not.toMatch(/Amharic|Zulu/);
  });
});

describe('the person’s language', () => {
  it('reads the reply language the chat service asks for from the system prompt', () => {
    expect(replyLanguageOf("You are Kasa.\nThe user's language is French (fr-CA); reply in it.")).toBe('fr');
    expect(replyLanguageOf("The user's language is Twi (tw); reply in it.")).toBe('tw');
    expect(replyLanguageOf('You are Kasa.')).toBeUndefined();
  });

  it('answers in French where it has the words, and says the quoted notes are in English', async () => {
    const reply = await streamed(
      "The user's language is French (fr); reply in it.",
      'Quelle est la capitale de la Mongolie ?',
    );
    expect(reply).toMatch(/^Les notes intégrées de Kasa sont rédigées en anglais/);
    expect(reply).toMatch(/Je ne peux pas répondre à cela sans fournisseur d'IA/);
    expect(reply).not.toMatch(OPERATOR_TALK);
  });

  it('says plainly, first, that the answer is in English when it has no words in the person’s language', async () => {
    const reply = await streamed("The user's language is Twi (tw); reply in it.", 'How much does the Pro plan cost?');
    expect(reply).toMatch(
      /^You wrote in Twi\. Kasa's built-in notes are written in English, so this answer is in English\./,
    );
    expect(reply).toMatch(/Pro costs \$29 per month/);
  });

  it('adds no such note for English', async () => {
    const reply = await streamed(
      "The user's language is English (en); reply in it.",
      'How much does the Pro plan cost?',
    );
    expect(reply).not.toMatch(/in English/);
  });
});
