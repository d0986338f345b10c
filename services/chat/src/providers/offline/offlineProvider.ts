import { DEFAULT_PERSONAS } from '../../personas/catalogue';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatProvider, ProviderChunk, ProviderRequest } from '../chatProvider';
import { CONTINUE_INSTRUCTION } from '../providerChain';
import type { KnowledgeBase } from './knowledgeBase';

export const OFFLINE_PROVIDER = 'offline';
export const OFFLINE_MODEL = 'kasa-knowledge-base';

const GREETING =
  /^\s*(hi|hello|hey|good (morning|afternoon|evening)|akwaaba|howdy|greetings|bonjour|salut)\b[\s!.,]*$/i;

/**
 * The reply language as the chat service states it in the system prompt ("The user's language is Twi (tw); reply
 * in it."). The offline provider has no model to follow that sentence, so it reads the tag from it.
 */
const LANGUAGE_IN_PROMPT = /\(([a-zA-Z]{2,3})(?:-[a-zA-Z0-9]{2,8})*\); reply in it\./;

/** What the offline provider says in its own words; the knowledge it quotes is in the knowledge base's languages. */
interface Phrases {
  /** Before an answer drawn from the notes. */
  intro: string;
  /** When a provider stopped mid-reply and the notes finish it. */
  continuing: string;
  /** A general question the notes do not cover. */
  cannotAnswer: string;
  /** Introduces Kasa's own description after `cannotAnswer`. */
  aboutKasa: string;
  /** What it can answer offline, given the persona's field. */
  canAnswer: (field: string) => string;
  /** After a greeting. */
  greetingNote: (field: string) => string;
  /** Said when the notes it quotes are in English although the person writes another language. */
  inEnglish: string;
  sources: string;
}

const ENGLISH: Phrases = {
  intro: "I am answering in offline mode: no AI provider is connected, so this comes from Kasa's built-in notes.",
  continuing: "(The AI provider stopped answering, so I am finishing in offline mode from Kasa's built-in notes.)",
  cannotAnswer:
    "I can't answer that without an AI provider, and none is connected right now (I am in offline mode). My " +
    'built-in notes do not cover that, so I would rather not guess.',
  aboutKasa: 'Here is what I can tell you about Kasa:',
  canAnswer: (field) =>
    'Offline, I can answer questions about Kasa itself (what it is, the personas, plans and prices, languages, the ' +
    `API and the SDKs) and ${field}.`,
  greetingNote: (field) =>
    'I am in offline mode right now, so I can answer questions about Kasa itself (plans, personas, languages, the ' +
    `API and SDKs) and ${field}. Other questions need an AI provider, which is not connected at the moment.`,
  inEnglish: "Kasa's built-in notes are written in English, so this answer is in English.",
  sources: 'Sources',
};

/** The offline provider's own sentences in other languages; the knowledge it quotes stays as written. */
const PHRASES: Record<string, Phrases> = {
  en: ENGLISH,
  fr: {
    intro:
      "Je réponds en mode hors ligne : aucun fournisseur d'IA n'est connecté, cette réponse vient donc des notes " +
      'intégrées de Kasa.',
    continuing:
      "(Le fournisseur d'IA a cessé de répondre : je termine en mode hors ligne à partir des notes intégrées de Kasa.)",
    cannotAnswer:
      "Je ne peux pas répondre à cela sans fournisseur d'IA, et aucun n'est connecté pour le moment (je suis en " +
      'mode hors ligne). Mes notes intégrées ne couvrent pas ce sujet : je préfère ne pas deviner.',
    aboutKasa: 'Voici ce que je peux vous dire de Kasa :',
    canAnswer: (field) =>
      'Hors ligne, je peux répondre aux questions sur Kasa (ce que c’est, les personas, les offres et les prix, les ' +
      `langues, l'API et les SDK) et sur ${field}.`,
    greetingNote: (field) =>
      'Je suis en mode hors ligne pour le moment : je peux répondre aux questions sur Kasa (offres, personas, ' +
      `langues, API et SDK) et sur ${field}. Les autres questions demandent un fournisseur d'IA, qui n'est pas ` +
      'connecté pour le moment.',
    inEnglish: 'Les notes intégrées de Kasa sont rédigées en anglais : la suite de cette réponse est donc en anglais.',
    sources: 'Sources',
  },
};

/** The names people use (CLDR calls Twi "Akan"); anything else by Intl. */
const LANGUAGE_NAMES: Record<string, string> = { tw: 'Twi', ak: 'Twi', gaa: 'Ga', ee: 'Ewe' };
const displayNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
function languageName(tag: string): string {
  try {
    return LANGUAGE_NAMES[tag] ?? displayNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The primary language subtag of the reply language the chat service asked for; undefined when none was said. */
export function replyLanguageOf(system: string): string | undefined {
  return LANGUAGE_IN_PROMPT.exec(system)?.[1]?.toLowerCase();
}

/**
 * The last provider of every chain: needs no network. Answers from the persona's knowledge base by full-text
 * retrieval and says what it drew on. It tells people plainly that it is in offline mode and what it can answer,
 * never how to configure the platform (operators see that in the chat service's start-up warning and on the
 * portal's Services tab). A question its notes do not cover gets an honest "I can't answer that without an AI
 * provider" and what it can tell about Kasa, instead of a guess. Its own sentences follow the person's language
 * where it has them; where the notes it quotes are in English and the person writes another language, it says so.
 * Streams word by word like a real provider.
 */
export class OfflineProvider implements ChatProvider {
  readonly name = OFFLINE_PROVIDER;

  constructor(
    private readonly knowledge: KnowledgeBase,
    private readonly wordDelayMs: number,
  ) {}

  modelFor(): string {
    return OFFLINE_MODEL;
  }

  /** The full reply for a question (also used by tests and the non-streamed path). `language`: a primary subtag. */
  answer(question: string, personaId: string, continuing: boolean, language = 'en'): string {
    const persona = DEFAULT_PERSONAS.find((p) => p.id === personaId);
    const phrases = PHRASES[language] ?? ENGLISH;
    const field = persona ? `some basics of ${persona.expertise.toLowerCase()}` : 'some everyday basics';
    // Said first, in the person's language when possible, whenever what follows is not in their language.
    const englishNote =
      language === 'en'
        ? ''
        : PHRASES[language]
          ? `${phrases.inEnglish}\n\n`
          : `You wrote in ${languageName(language)}. ${ENGLISH.inEnglish}\n\n`;

    if (GREETING.test(question) && !continuing) {
      return `${englishNote}${persona?.greeting ?? 'Hello!'}\n\n${phrases.greetingNote(field)}`;
    }
    const hits = this.knowledge.search(question, personaId, 2, language);
    if (hits.length === 0) {
      const overview = this.knowledge.find('What is Kasa', language) ?? this.knowledge.find('What is Kasa');
      const lead = continuing ? `\n\n${phrases.continuing}\n\n` : '';
      return (
        `${lead}${englishNote}${phrases.cannotAnswer}` +
        (overview ? `\n\n${phrases.aboutKasa} ${overview.text}` : '') +
        `\n\n${phrases.canAnswer(field)}`
      );
    }
    const inOwnLanguage = hits.every((h) => h.section.language === language);
    const note = inOwnLanguage ? '' : englishNote;
    const intro = continuing ? `\n\n${phrases.continuing}\n\n` : `${phrases.intro}\n\n`;
    const body = hits.map((h) => h.section.text).join('\n\n');
    const sources = hits.map((h) => `${h.section.source} › ${h.section.heading}`).join('; ');
    return `${continuing ? intro + note : note + intro}${body}\n\n${phrases.sources}: ${sources}.`;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const continuing = request.messages[request.messages.length - 1]?.content === CONTINUE_INSTRUCTION;
    const question =
      [...request.messages].reverse().find((m) => m.role === 'user' && m.content !== CONTINUE_INSTRUCTION)?.content ??
      '';
    const reply = this.answer(question, request.personaId, continuing, replyLanguageOf(request.system));
    const pieces = reply.match(/\s*\S+/g) ?? [];
    for (const piece of pieces) {
      if (request.signal.aborted) throw request.signal.reason;
      if (this.wordDelayMs > 0) await sleep(this.wordDelayMs, undefined, { signal: request.signal });
      else await new Promise((resolve) => setImmediate(resolve));
      yield { type: 'text', text: piece };
    }
    yield { type: 'usage', inputTokens: Math.ceil(question.length / 4), outputTokens: pieces.length };
  }
}
