import type { Persona } from '@kasa/contracts';
import type { LanguageDetector } from '@kasa/language-detect';
import { documentsPrompt, type PromptDocument } from '../attachments/documentPrompt';
import type { GeoContext } from '../geo/geoContext';
import { CHARS_PER_TOKEN, estimateTokens, type PromptMessage } from '../providers/chatProvider';
import { NO_VISION_NOTICE } from '../providers/providerChain';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** CLDR names Twi "Akan" (its macrolanguage); the model should hear the name people use. */
const NAME_OVERRIDES: Record<string, string> = { tw: 'Twi' };

/** 'tw' → 'Twi', 'fr-CI' → 'French (Côte d’Ivoire)'; a tag Intl does not know stays as it is. */
function languageName(tag: string): string {
  if (NAME_OVERRIDES[tag]) return NAME_OVERRIDES[tag];
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The newest messages that fit the token budget (≈ 4 characters a token); the last message is always kept. */
export function fitHistory(messages: PromptMessage[], budget: number): PromptMessage[] {
  const kept: PromptMessage[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const cost = estimateTokens(message.content) + 4;
    if (kept.length > 0 && used + cost > budget) break;
    kept.push(message);
    used += cost;
  }
  // Providers expect the conversation to start with the user.
  while (kept.length > 1 && kept[kept.length - 1]!.role === 'assistant') kept.pop();
  return kept.reverse();
}

export interface PromptBuilderDeps {
  /** Estimated tokens of history a prompt carries; also the budget of a message's documents' text. */
  historyTokenBudget: number;
  /** Detects the reply language when the person has not chosen one; without it the model mirrors the message. */
  detector?: LanguageDetector;
  /** Where the caller appears to be, for the personas that use it; left out of the prompt when unknown. */
  geo?: GeoContext;
}

/**
 * What a provider is asked: the persona's system prompt with the reply language, the location and the documents of
 * the message, and the history within its token budget. One builder for the chat API and the OpenAI-compatible one.
 */
export class PromptBuilder {
  constructor(private readonly deps: PromptBuilderDeps) {}

  /**
   * The language the reply should be in: the person's choice when they made one (it always wins, so a misread
   * message never switches the conversation), else the language detected from the message, with their recent
   * messages as a hint. A detection the detector is not sure of (`reliable: false`, below its calibrated confidence)
   * sets nothing: the model then mirrors the message.
   */
  replyLanguage(
    content: string,
    chosen: string | undefined,
    history: PromptMessage[],
    /** A regenerated answer's question: the language it was answered in before (chosen or detected). */
    earlier?: string,
  ): string | undefined {
    if (chosen && chosen !== 'auto') return chosen;
    if (earlier) return earlier;
    if (!this.deps.detector) return undefined;
    const recent = history
      .filter((m) => m.role === 'user')
      .slice(-3)
      .map((m) => m.content);
    const detected = this.deps.detector.detect(content, { recent });
    return detected.reliable ? detected.language : undefined;
  }

  /**
   * The sentence saying where the caller appears to be, asked now and awaited when the prompt is put together (it
   * never rejects and gives up after its timeout); undefined when there is nothing to ask.
   */
  location(forwardedFor: string | undefined, requestId?: string): Promise<string | undefined> | undefined {
    return this.deps.geo && forwardedFor ? this.deps.geo.sentenceFor(forwardedFor, requestId) : undefined;
  }

  /** The chat's system prompt: the persona's, then the reply language, the location and the message's documents. */
  chatSystem(parts: { persona: Persona; language?: string; location?: string; documents: PromptDocument[] }): string {
    const { persona, language } = parts;
    return [
      persona.systemPrompt,
      language ? `The user's language is ${languageName(language)} (${language}); reply in it.` : undefined,
      parts.location,
      // Documents go with the system prompt, not the history: the next turn's history is the messages as stored.
      documentsPrompt(parts.documents, this.deps.historyTokenBudget * CHARS_PER_TOKEN) || undefined,
    ]
      .filter(Boolean)
      .join('\n');
  }

  /** The OpenAI-compatible API's system prompt: the persona's, then the caller's own system messages. */
  openAISystem(persona: Persona, callerSystem: string[]): string {
    return [persona.systemPrompt, ...callerSystem].join('\n\n');
  }

  /** The history a prompt sends: the newest messages within the token budget, starting with the user. */
  fit(history: PromptMessage[]): PromptMessage[] {
    return fitHistory(history, this.deps.historyTokenBudget);
  }

  /** The notice of a reply whose images the provider could not see, in the reply's language where Kasa has it. */
  noVisionNotice(language: string | undefined): string {
    const primary = language?.split('-')[0]?.toLowerCase() ?? 'en';
    return NO_VISION_NOTICE[primary] ?? NO_VISION_NOTICE.en!;
  }
}
