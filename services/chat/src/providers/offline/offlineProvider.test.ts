import { AFRICAN_LANGUAGES } from '@kasa/contracts';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { documentsPrompt, type PromptDocument } from '../../attachments/documentPrompt';
import { DEFAULT_KNOWLEDGE_DIR, KnowledgeBase, type KnowledgeSection } from './knowledgeBase';
import { OfflineProvider, replyLanguageOf } from './offlineProvider';

const knowledge = KnowledgeBase.load();
const offline = new OfflineProvider(knowledge, 0);

/**
 * What a person must never be shown: how to configure or restart the platform (a developer's own KASA_API_KEY, in
 * the SDK notes, is theirs to set and fine).
 */
const OPERATOR_TALK = /CHAT_PROVIDERS|\b(?!KASA_)[A-Z]+_API_KEY|restart (it|the (chat )?service)|set [A-Z_]+=/;

/** Every sentence of a reply that is not the offline provider's own: what it quoted (notes or documents). */
const UNRELATED = {
  timeZones: /West Africa Time/,
  rateLimits: /1,000 requests per minute|HTTP 429/,
  malariaOnly: /^(?![\s\S]*Most headaches)[\s\S]*The symptoms of malaria/,
};

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

  it("keeps to the persona's field: dokta knows malaria, merla says who may", () => {
    expect(offline.answer('What are the symptoms of malaria?', 'dokta', false)).toMatch(/fever, chills/);
    const merla = offline.answer('What are the symptoms of malaria?', 'merla', false);
    expect(merla).toMatch(
      /^That is outside what I can help with in offline mode; Dokta, the health persona, may know\./,
    );
    expect(merla).not.toMatch(/fever|Sources:/);
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

describe('the questions a new person asks first', () => {
  it.each(['kasa', 'nana'])('answers "What is the capital of Ghana?" to %s from the note about Ghana', (persona) => {
    const reply = offline.answer('What is the capital of Ghana?', persona, false);
    expect(reply).toMatch(/^I am answering in offline mode/);
    expect(reply).toMatch(/Ghana's capital and largest city is Accra/);
    expect(reply).toMatch(/Sources: Countries and places › Ghana\.$/);
    expect(reply).not.toMatch(UNRELATED.timeZones);
  });

  it('answers a capital its notes do not have with an honest "I can\u2019t answer that", not the note about Ghana', () => {
    const reply = offline.answer('What is the capital of Mongolia?', 'kasa', false);
    expect(reply).toMatch(/^I can't answer that without an AI provider/);
    expect(reply).not.toMatch(/Accra|Abuja|Sources:/);
  });

  it('gives Dokta\u2019s general headache guidance with the safety notice, not only malaria', () => {
    const reply = offline.answer('I have a headache', 'dokta', false);
    expect(reply).toMatch(/Most headaches come from tension/);
    expect(reply).toMatch(/Get help at once for a sudden, very severe headache/);
    expect(reply).toMatch(/not a diagnosis or a prescription\. In an emergency[^.]*call local emergency services now/);
    expect(reply).toMatch(/Sources: Health and wellbeing information › Headaches; .*› Safety notice\.$/);
    expect(reply).not.toMatch(UNRELATED.malariaOnly);
  });

  it('has Dokta say that saving money is outside its field offline, and that Merla may know', () => {
    const reply = offline.answer('How can I save money each month?', 'dokta', false);
    expect(reply).toBe(
      'That is outside what I can help with in offline mode; Merla, the finance persona, may know.\n\n' +
        'Offline, I can answer questions about Kasa itself (what it is, the personas, plans and prices, languages, ' +
        'the API and the SDKs) and general health and wellbeing information.',
    );
  });

  it('has Merla answer "How can I save money each month?" from the finance notes, with the disclaimer', () => {
    const reply = offline.answer('How can I save money each month?', 'merla', false);
    expect(reply).toMatch(/move it to savings on payday, before you spend \(pay yourself first\)/);
    expect(reply).toMatch(/not regulated financial advice/);
    expect(reply).toMatch(/Sources: Personal finance basics › Saving money each month; .*› Disclaimer\.$/);
    expect(reply).not.toMatch(UNRELATED.rateLimits);
  });

  it.each([
    ['I have a headache', 'kasa', /Dokta, the health persona, may know/],
    ['How do I make a budget?', 'kasa', /Merla, the finance persona, may know/],
    ['My microphone does not work', 'nana', /Massa, the technical support persona, may know/],
    ['What is the capital of Ghana?', 'dokta', /Kasa, the general assistant, or Nana, the local guide, may know/],
  ])('points %p asked of %s to the persona whose field it is', (question, persona, who) => {
    const reply = offline.answer(question, persona, false);
    expect(reply).toMatch(/^That is outside what I can help with in offline mode/);
    expect(reply).toMatch(who);
    expect(reply).not.toMatch(/Sources:/);
  });

  it('says so in French when the person writes French', () => {
    const reply = offline.answer('How can I save money each month?', 'dokta', false, { language: 'fr' });
    expect(reply).toMatch(
      /^Cela sort de ce que je peux faire en mode hors ligne ; Merla, la persona de la finance, pourrait le savoir\./,
    );
    // All of it in French: no notes are quoted, so there is no "the notes are in English" note.
    expect(reply).not.toMatch(/anglais|English/);
  });

  it('lets a custom persona answer from the general notes, like Kasa', () => {
    expect(offline.answer('What is the capital of Ghana?', 'my-custom-persona', false)).toMatch(/Accra/);
    expect(offline.answer('How much does the Pro plan cost?', 'my-custom-persona', false)).toMatch(/\$29/);
  });

  it('every answer says it is in offline mode', () => {
    const questions = ['I have a headache', 'What is the capital of Ghana?', 'Who painted the Mona Lisa?'];
    for (const question of questions)
      for (const persona of ['kasa', 'merla', 'dokta']) {
        expect(offline.answer(question, persona, false)).toMatch(/offline mode/);
      }
  });
});

describe('notes in other languages', () => {
  const section = (id: string, language: string, heading: string, text: string): KnowledgeSection => ({
    id,
    source: 'Test',
    heading,
    text,
    personas: ['all'],
    language,
  });
  const notes = new KnowledgeBase([
    section('en#0', 'en', 'Mobile money', 'Mobile money lets you send and save money from a phone.'),
    section('en#1', 'en', 'Time zones', 'Ghana uses GMT all year.'),
    section(
      'fr#0',
      'fr',
      'Argent mobile',
      'L’argent mobile permet d’envoyer et d’épargner de l’argent depuis un téléphone.',
    ),
    section('fr#1', 'fr', 'Fuseaux horaires', 'Le Sénégal est à l’heure GMT toute l’année.'),
  ]);

  it('are searched with their own language’s words, accents or not', () => {
    expect(
      notes.lookup('Comment épargner avec l’argent mobile ?', 'kasa', { language: 'fr' }).hits[0]?.section.id,
    ).toBe('fr#0');
    expect(notes.lookup('quelle heure au senegal', 'kasa', { language: 'fr' }).hits[0]?.section.id).toBe('fr#1');
  });

  it('come first for a person writing that language, English otherwise', () => {
    expect(notes.lookup('How do I save with mobile money?', 'kasa', { language: 'en' }).hits[0]?.section.id).toBe(
      'en#0',
    );
    expect(notes.lookup('How do I save with mobile money?', 'kasa').hits[0]?.section.id).toBe('en#0');
  });

  it('are quoted without the "notes are in English" note', () => {
    const reply = new OfflineProvider(notes, 0).answer('Comment épargner avec l’argent mobile ?', 'kasa', false, {
      language: 'fr',
    });
    expect(reply).toMatch(/^Je réponds en mode hors ligne/);
    expect(reply).toMatch(/L’argent mobile permet/);
    expect(reply).not.toMatch(/anglais/);
  });
});

describe('documents the person attached', () => {
  const report: PromptDocument = {
    name: 'report.pdf',
    textUnit: 'page',
    textParts: [
      { n: 1, text: 'Quarterly report\nCocoa exports rose by 5% this quarter.\nGold output fell.' },
      { n: 2, text: 'Budget\nThe budget owner is Ama Mensah.\nThe budget is reviewed every quarter by the board.' },
    ],
  };
  /** The system prompt as the chat service writes it (documentsPrompt), with the persona's own prompt before it. */
  const systemWith = (documents: PromptDocument[], language?: string) =>
    [
      'You are Kasa.',
      language ? `The user's language is ${language === 'fr' ? 'French' : 'Twi'} (${language}); reply in it.` : '',
      documentsPrompt(documents, 12_000),
    ]
      .filter(Boolean)
      .join('\n');

  it('answers a question about them by quoting the passage that answers it, with its citation', async () => {
    const reply = await streamed(systemWith([report]), 'Who is the budget owner?');
    expect(reply).toMatch(
      /^I am answering in offline mode: no AI provider is connected, so here are the passages of report\.pdf/,
    );
    expect(reply).toContain('"The budget owner is Ama Mensah." [report.pdf, p. 2]');
    expect(reply).not.toMatch(/Cocoa|do not cover that|Sources:/);
  });

  it('cites sections as the document prompt labels them, and a sentence broken across lines whole', async () => {
    const minutes: PromptDocument = {
      name: 'minutes.docx',
      textUnit: 'section',
      textParts: [
        { n: 1, text: 'Attendees\nKofi, Efua and Ama.' },
        { n: 2, text: 'Decisions\nThe next meeting will be held in\nKumasi on 3 March.' },
      ],
    };
    const reply = await streamed(systemWith([report, minutes]), 'Where will the next meeting be held?');
    expect(reply).toContain('"The next meeting will be held in Kumasi on 3 March." [minutes.docx, § 2]');
    expect(reply).toMatch(/passages of minutes\.docx that best match/);
  });

  it('says plainly when the documents do not answer, rather than quoting something', async () => {
    const reply = await streamed(systemWith([report]), 'What did the auditors conclude about the pension fund?');
    expect(reply).toMatch(/^I found no passage in report\.pdf that matches your question\.\n\nI can't answer that/);
    expect(reply).not.toMatch(/Ama Mensah|Cocoa|Here is what I can tell you about Kasa/);
  });

  it('says that no text could be read from a scanned document', async () => {
    const scan: PromptDocument = { name: 'scan.pdf', textUnit: 'page', textParts: [] };
    const reply = await streamed(systemWith([scan]), 'Who is the budget owner?');
    expect(reply).toMatch(/^No text could be read from scan\.pdf \(it may be a scanned image\)/);
  });

  it('quotes nothing of the prompt’s own notes about a cut document', async () => {
    const long: PromptDocument = { ...report, textTruncated: true };
    expect(systemWith([long])).toContain('(The rest of this document is left out.)');
    const reply = await streamed(systemWith([long]), 'Who reviews the budget?');
    expect(reply).toContain('"The budget is reviewed every quarter by the board." [report.pdf, p. 2]');
    expect(reply).not.toMatch(/left out/);
  });

  it('still answers from the notes when the question is not about the documents', async () => {
    const reply = await streamed(systemWith([report]), 'How much does the Pro plan cost?');
    expect(reply).toMatch(
      /^I am answering in offline mode[\s\S]*I found no passage in report\.pdf[\s\S]*Pro costs \$29/,
    );
  });

  it('speaks French around the quotes for a person writing French, and reads a French document in French', async () => {
    const rapport: PromptDocument = {
      name: 'rapport.docx',
      textUnit: 'section',
      textParts: [
        { n: 1, text: 'Les exportations de cacao ont augmenté.' },
        { n: 2, text: 'Le responsable du budget est Ama Mensah.\nLe budget est révisé chaque trimestre.' },
      ],
    };
    const reply = await streamed(systemWith([rapport], 'fr'), 'Qui est responsable du budget ?');
    expect(reply).toMatch(
      /^Je réponds en mode hors ligne : aucun fournisseur d'IA n'est connecté, voici donc les passages de rapport\.docx/,
    );
    expect(reply).toContain('"Le responsable du budget est Ama Mensah." [rapport.docx, § 2]');
    expect(reply).not.toMatch(/cacao/);
  });
});
