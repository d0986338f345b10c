import { DEFAULT_PERSONAS } from '../../personas/catalogue';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatProvider, ProviderChunk, ProviderRequest } from '../chatProvider';
import { CONTINUE_INSTRUCTION } from '../providerChain';
import { documentsIn, quotesFor, type AttachedDocument, type DocumentQuote } from './attachedDocuments';
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
  /** What it can answer offline, given the persona's field (one of `fields`). */
  canAnswer: (field: string) => string;
  /** After a greeting. */
  greetingNote: (field: string) => string;
  /** Said when the notes it quotes are in English although the person writes another language. */
  inEnglish: string;
  sources: string;
  /** What each persona's field covers offline, by persona id (a custom persona has Kasa's). */
  fields: Record<string, string>;
  /** How a persona is named when the person is pointed to it, by persona id: "Merla, the finance persona". */
  roles: Record<string, string>;
  /** A question that the notes of other personas' fields answer, not this one's: who may know (`roles`). */
  outsideField: (others: string[]) => string;
  /** Before the passages quoted from the person's documents (their names). */
  quotingDocuments: (names: string) => string;
  /** No passage of the documents answers the question (their names). */
  notInDocuments: (names: string) => string;
  /** No text could be read from these documents (their names). */
  unreadable: (names: string) => string;
}

/** Names in a sentence: "a.pdf and b.docx", « a.pdf et b.docx ». */
const listOf = (language: string, names: string[]): string =>
  new Intl.ListFormat(language, { type: 'conjunction' }).format(names);

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
  fields: {
    kasa: 'some everyday basics (asking a good question, time zones, units, Ghana and African capitals)',
    merla: 'the basics of personal finance (budgeting, saving, mobile money, investing, debt)',
    ticha: 'the basics of studying and teaching',
    massa: 'basic technical help (signing in, pages that do not load, the microphone, the connection)',
    nana: 'the basics of travel, culture and places',
    dokta: 'general health and wellbeing information',
  },
  roles: {
    kasa: 'Kasa, the general assistant',
    merla: 'Merla, the finance persona',
    ticha: 'Ticha, the education persona',
    massa: 'Massa, the technical support persona',
    nana: 'Nana, the local guide',
    dokta: 'Dokta, the health persona',
  },
  outsideField: (others) => `That is outside what I can help with in offline mode; ${others.join(', or ')}, may know.`,
  quotingDocuments: (names) =>
    `I am answering in offline mode: no AI provider is connected, so here are the passages of ${names} that best ` +
    'match your question, quoted as written.',
  notInDocuments: (names) => `I found no passage in ${names} that matches your question.`,
  unreadable: (names) => `No text could be read from ${names} (it may be a scanned image), so I cannot quote it.`,
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
    fields: {
      kasa:
        'quelques notions de tous les jours (bien poser une question, fuseaux horaires, unités, le Ghana et les ' +
        'capitales africaines)',
      merla: 'les bases des finances personnelles (budget, épargne, mobile money, placements, dettes)',
      ticha: 'les bases pour étudier et enseigner',
      massa: "l'aide technique de base (connexion au compte, pages qui ne s'affichent pas, micro, réseau)",
      nana: 'les bases du voyage, de la culture et des lieux',
      dokta: 'des informations générales sur la santé et le bien-être',
    },
    roles: {
      kasa: 'Kasa, l’assistant généraliste',
      merla: 'Merla, la persona de la finance',
      ticha: 'Ticha, la persona de l’éducation',
      massa: 'Massa, la persona du support technique',
      nana: 'Nana, la guide locale',
      dokta: 'Dokta, la persona de la santé',
    },
    outsideField: (others) =>
      `Cela sort de ce que je peux faire en mode hors ligne ; ${others.join(', ou ')}, ` +
      `${others.length > 1 ? 'pourraient' : 'pourrait'} le savoir.`,
    quotingDocuments: (names) =>
      "Je réponds en mode hors ligne : aucun fournisseur d'IA n'est connecté, voici donc les passages de " +
      `${names} qui correspondent le mieux à votre question, cités tels quels.`,
    notInDocuments: (names) => `Je n'ai trouvé dans ${names} aucun passage qui corresponde à votre question.`,
    unreadable: (names) =>
      `Aucun texte n'a pu être lu dans ${names} (c'est peut-être une image numérisée) : je ne peux pas le citer.`,
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

/** Before quotes from a person's document when Kasa has no sentences of its own in their language. */
const OWN_WORDS_IN_ENGLISH = 'Offline, I can only write my own sentences in English; the quotes are as written.';

/** What one reply is written with. */
interface Turn {
  language: string;
  phrases: Phrases;
  /** The persona id whose field the notes are drawn from. */
  field: string;
  /** What that field covers offline, in the person's language. */
  fieldText: string;
  /** Said first when the notes quoted are not in the person's language (empty for English). */
  englishNote: string;
  /** A provider stopped mid-reply and this reply finishes it. */
  continuing: boolean;
}

/** What goes with a question besides the persona: the reply language and the documents attached to it. */
export interface OfflineContext {
  /** The reply language's primary subtag (English by default). */
  language?: string;
  /** The documents the prompt carries (see documentsIn). */
  documents?: AttachedDocument[];
}

/**
 * The last provider of every chain: needs no network. Answers by full-text retrieval (BM25+) from the documents the
 * person attached, quoting the passages that match with their citation labels, or else from the notes of the
 * persona's field, saying what it drew on. A question that another persona's notes answer gets an honest "that is
 * outside what I can help with" and who may know; one that no notes answer gets an honest "I can't answer that
 * without an AI provider" and what it can tell about Kasa, never the nearest unrelated paragraph. It tells people
 * plainly that it is in offline mode, never how to configure the platform (operators see that in the chat service's
 * start-up warning and on the portal's Services tab). Its own sentences follow the person's language where it has
 * them; where the notes it quotes are in English and the person writes another language, it says so. Streams word by
 * word like a real provider.
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

  /** The full reply for a question (also used by tests and the non-streamed path). */
  answer(question: string, personaId: string, continuing: boolean, context: OfflineContext = {}): string {
    const language = context.language ?? 'en';
    const phrases = PHRASES[language] ?? ENGLISH;
    const persona = DEFAULT_PERSONAS.find((p) => p.id === personaId);
    // A custom persona has no notes of its own: it answers from the general ones, like Kasa.
    const field = persona?.id ?? 'kasa';
    const turn: Turn = {
      language,
      phrases,
      field,
      fieldText: phrases.fields[field] ?? ENGLISH.fields.kasa!,
      // Said first, in the person's language when possible, whenever what follows is not in their language.
      englishNote:
        language === 'en'
          ? ''
          : PHRASES[language]
            ? `${phrases.inEnglish}\n\n`
            : `You wrote in ${languageName(language)}. ${ENGLISH.inEnglish}\n\n`,
      continuing,
    };
    if (GREETING.test(question) && !continuing) {
      return `${turn.englishNote}${persona?.greeting ?? 'Hello!'}\n\n${phrases.greetingNote(turn.fieldText)}`;
    }
    const documents = context.documents ?? [];
    // The person's own documents first: what they attached is what they ask about.
    const readable = documents.filter((d) => d.parts.length > 0);
    const quotes = quotesFor(question, readable, language);
    if (quotes.length > 0) return this.quoting(turn, quotes, readable);
    const unreadable = documents.filter((d) => d.parts.length === 0).map((d) => d.name);
    const aboutDocuments = [
      unreadable.length > 0 ? phrases.unreadable(listOf(language, unreadable)) : '',
      readable.length > 0
        ? phrases.notInDocuments(
            listOf(
              language,
              readable.map((d) => d.name),
            ),
          )
        : '',
    ]
      .filter(Boolean)
      .map((sentence) => `${sentence}\n\n`)
      .join('');
    return this.fromNotes(turn, question, aboutDocuments, documents.length > 0);
  }

  /** Passages of the person's documents, quoted as written with the labels the document prompt gave them. */
  private quoting(turn: Turn, quotes: DocumentQuote[], documents: AttachedDocument[]): string {
    const quoted = documents.filter((d) => d.parts.some((p) => quotes.some((q) => q.label === p.label)));
    const names = listOf(
      turn.language,
      quoted.map((d) => d.name),
    );
    const ownWords = PHRASES[turn.language]
      ? ''
      : `You wrote in ${languageName(turn.language)}. ${OWN_WORDS_IN_ENGLISH}\n\n`;
    const opening = turn.continuing
      ? `\n\n${turn.phrases.continuing}\n\n${ownWords}`
      : `${ownWords}${turn.phrases.quotingDocuments(names)}\n\n`;
    return opening + quotes.map((q) => `"${q.text}" ${q.label}`).join('\n\n');
  }

  /**
   * From the notes of the persona's field; else who may know; else an honest "I can't answer that".
   * `aboutDocuments`: what to say first about the documents that did not answer.
   */
  private fromNotes(turn: Turn, question: string, aboutDocuments: string, hadDocuments: boolean): string {
    const { phrases, language, englishNote } = turn;
    const lead = turn.continuing ? `\n\n${phrases.continuing}\n\n` : '';
    const { hits, others } = this.knowledge.lookup(question, turn.field, { language });
    if (hits.length > 0) {
      const shown = hits.map((h) => h.section);
      const sections = [...shown, ...this.knowledge.noticesFor(shown)];
      const note = sections.every((s) => s.language === language) ? '' : englishNote;
      const opening = turn.continuing ? lead + note : `${note}${phrases.intro}\n\n`;
      const body = sections.map((s) => s.text).join('\n\n');
      const sources = sections.map((s) => `${s.source} › ${s.heading}`).join('; ');
      return `${opening}${aboutDocuments}${body}\n\n${phrases.sources}: ${sources}.`;
    }
    // Without notes quoted, the reply is all in the person's language where Kasa has the words.
    const ownWords = PHRASES[language] ? '' : englishNote;
    if (others.length > 0) {
      const who = others.map((id) => phrases.roles[id] ?? ENGLISH.roles[id] ?? id);
      return `${lead}${ownWords}${aboutDocuments}${phrases.outsideField(who)}\n\n${phrases.canAnswer(turn.fieldText)}`;
    }
    // What Kasa is, only when the question was not about the person's own documents.
    const overview = hadDocuments
      ? undefined
      : (this.knowledge.find('What is Kasa', language) ?? this.knowledge.find('What is Kasa'));
    const note = overview && overview.language !== language ? englishNote : ownWords;
    return (
      `${lead}${note}${aboutDocuments}${phrases.cannotAnswer}` +
      (overview ? `\n\n${phrases.aboutKasa} ${overview.text}` : '') +
      `\n\n${phrases.canAnswer(turn.fieldText)}`
    );
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const continuing = request.messages[request.messages.length - 1]?.content === CONTINUE_INSTRUCTION;
    const question =
      [...request.messages].reverse().find((m) => m.role === 'user' && m.content !== CONTINUE_INSTRUCTION)?.content ??
      '';
    const reply = this.answer(question, request.personaId, continuing, {
      language: replyLanguageOf(request.system),
      documents: documentsIn(request.system),
    });
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
