import { DEFAULT_PERSONAS } from '../../personas/catalogue';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatProvider, ProviderChunk, ProviderRequest } from '../chatProvider';
import { CONTINUE_INSTRUCTION } from '../providerChain';
import { meaningfulTerms, type KnowledgeBase } from './knowledgeBase';

export const OFFLINE_PROVIDER = 'offline';
export const OFFLINE_MODEL = 'kasa-knowledge-base';

const HOW_TO_CONNECT =
  'To get full answers, connect an AI provider: set CHAT_PROVIDERS on the chat service (for example ' +
  'CHAT_PROVIDERS=openai with OPENAI_API_KEY, CHAT_PROVIDERS=anthropic with ANTHROPIC_API_KEY, or CHAT_PROVIDERS=ollama ' +
  'for a local model) and restart it.';

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|akwaaba|howdy|greetings)\b[\s!.,]*$/i;

/**
 * The last provider of every chain: needs no network. Answers from the persona's knowledge base by full-text
 * retrieval, says what it drew on, says plainly that it is offline and how to connect a provider, and admits when
 * its notes do not cover the question. Streams word by word like a real provider.
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
  answer(question: string, personaId: string, continuing: boolean): string {
    const persona = DEFAULT_PERSONAS.find((p) => p.id === personaId);
    const intro = continuing
      ? "\n\n(The AI provider stopped answering, so I am finishing in offline mode from Kasa's built-in notes.)\n\n"
      : "I am answering in offline mode: no AI provider is connected, so I can only share what Kasa's built-in notes say.\n\n";
    if (GREETING.test(question)) {
      return (
        `${persona?.greeting ?? 'Hello!'}\n\nI am in offline mode right now, so I can answer questions about Kasa itself ` +
        `(plans, personas, languages, the API and SDKs) and some basics of ${persona?.expertise.toLowerCase() ?? 'my field'}.\n\n${HOW_TO_CONNECT}`
      );
    }
    const hits = this.knowledge.search(question, personaId);
    if (hits.length === 0) {
      const topic = persona ? `some basics of ${persona.expertise.toLowerCase()}` : 'some everyday basics';
      return (
        `${continuing ? intro : ''}I am in offline mode (no AI provider is connected), and my built-in notes do not cover ` +
        `that${meaningfulTerms(question).length ? '' : ' question'}, so I would rather not guess. Offline, I can answer questions about Kasa itself ` +
        `(what it is, the personas, plans and prices, languages, the API and the SDKs) and ${topic}.\n\n${HOW_TO_CONNECT}`
      );
    }
    const body = hits.map((h) => h.section.text).join('\n\n');
    const sources = hits.map((h) => `${h.section.source} › ${h.section.heading}`).join('; ');
    return `${intro}${body}\n\nSources: ${sources}.\n\n${HOW_TO_CONNECT}`;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const continuing = request.messages[request.messages.length - 1]?.content === CONTINUE_INSTRUCTION;
    const question =
      [...request.messages].reverse().find((m) => m.role === 'user' && m.content !== CONTINUE_INSTRUCTION)?.content ??
      '';
    const reply = this.answer(question, request.personaId, continuing);
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
