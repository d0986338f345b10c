import type {
  AiProviderCreateRequest,
  AiProviderKind,
  AiProviderKindInfo,
  AiProviderTestRequest,
  LocalModelStatus,
} from '@kasa/contracts';

// The first-run "Connect AI" step's logic: which kinds it offers for a pasted key, what a choice becomes as a test
// and as a new provider (shared/contracts/src/aiProviders.ts), and the local model download's progress. The operator
// console (frontends/admin/src/providers) has the full form; this is the short path.

/** The providers' own names, the same in every language. */
const BRANDS: Partial<Record<AiProviderKind, string>> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  mistral: 'Mistral',
  groq: 'Groq',
  deepseek: 'DeepSeek',
  xai: 'xAI',
  cohere: 'Cohere',
  togetherai: 'Together AI',
  fireworks: 'Fireworks AI',
  perplexity: 'Perplexity',
  cerebras: 'Cerebras',
  deepinfra: 'DeepInfra',
  openrouter: 'OpenRouter',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  vllm: 'vLLM',
};

/**
 * The kinds the "paste a key" choice offers, in the server's order: those a key and an address are enough for. Ollama
 * and the local model have choices of their own; Azure and Bedrock need settings only the operator console asks for.
 */
export function keyKinds(kinds: readonly AiProviderKindInfo[]): AiProviderKindInfo[] {
  return kinds.filter((info) => BRANDS[info.kind] !== undefined || info.kind === 'openai-compatible');
}

/** A kind's name; `compatible` is the step's words for an OpenAI-compatible server. */
export const kindLabel = (kind: AiProviderKind, compatible: string): string =>
  kind === 'openai-compatible' ? compatible : (BRANDS[kind] ?? kind);

/** Self-hosted servers speaking OpenAI's API: a key is optional. */
const OPTIONAL_KEY: ReadonlySet<AiProviderKind> = new Set(['openai-compatible', 'lmstudio', 'llamacpp', 'vllm']);

export const keyNeed = (info: AiProviderKindInfo): 'required' | 'optional' | 'none' =>
  info.needsKey ? 'required' : OPTIONAL_KEY.has(info.kind) ? 'optional' : 'none';

/** Whether the step asks for the server's address (the kind needs one or runs on a server of its own). */
export const asksBaseUrl = (info: AiProviderKindInfo): boolean =>
  info.needsBaseURL || info.defaultBaseURL !== undefined || OPTIONAL_KEY.has(info.kind);

/** A free name for a new provider: the kind's (`openai`), else numbered (`openai-2`); never `offline`. */
export function uniqueName(base: string, taken: readonly string[]): string {
  const stem =
    base
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^[^a-z]+/, '')
      .slice(0, 32)
      .replace(/-+$/, '') || 'provider';
  const used = new Set([...taken, 'offline']);
  if (!used.has(stem)) return stem;
  for (let n = 2; ; n++) {
    const name = `${stem.slice(0, 32 - `-${n}`.length).replace(/-+$/, '')}-${n}`;
    if (!used.has(name)) return name;
  }
}

/** What the operator typed for the "paste a key" choice. */
export interface KeyForm {
  kind: AiProviderKind;
  apiKey: string;
  baseURL: string;
  model: string;
}

export type KeyFormProblem = 'key' | 'baseURL' | 'baseURLRequired' | 'model';

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol) && text.length <= 500;
  } catch {
    return false;
  }
};

/** What is wrong with the form, field by field (empty when it can be tested). */
export function keyFormProblems(
  form: KeyForm,
  info: AiProviderKindInfo,
): Partial<Record<keyof KeyForm, KeyFormProblem>> {
  const problems: Partial<Record<keyof KeyForm, KeyFormProblem>> = {};
  if (keyNeed(info) === 'required' && !form.apiKey.trim()) problems.apiKey = 'key';
  const url = form.baseURL.trim();
  if (asksBaseUrl(info)) {
    if (url && !isHttpUrl(url)) problems.baseURL = 'baseURL';
    else if (!url && info.needsBaseURL) problems.baseURL = 'baseURLRequired';
  }
  if (!form.model.trim()) problems.model = 'model';
  return problems;
}

/** The form as a connection test (nothing saved) and as the provider saved once the test passed. */
export function keyFormRequests(
  form: KeyForm,
  info: AiProviderKindInfo,
  taken: readonly string[],
): { test: AiProviderTestRequest; create: AiProviderCreateRequest } {
  const key = form.apiKey.trim();
  const url = form.baseURL.trim();
  const settings = {
    ...(key && keyNeed(info) !== 'none' ? { apiKey: key } : {}),
    ...(url && asksBaseUrl(info) ? { baseURL: url } : {}),
    model: form.model.trim(),
  };
  return {
    test: { kind: form.kind, ...settings },
    create: { name: uniqueName(form.kind, taken), kind: form.kind, ...settings },
  };
}

/** The local model download's whole percent done, 0 to 100, or null while its size is unknown. */
export function percentDone(status: Pick<LocalModelStatus, 'bytes' | 'totalBytes'>): number | null {
  if (!status.totalBytes || status.totalBytes <= 0) return null;
  return Math.min(100, Math.max(0, Math.floor((status.bytes / status.totalBytes) * 100)));
}

/** A size for people (`1.25 GB`, `1,25 Go`), never rounded up to the whole before it is complete. */
export function formatBytes(bytes: number, locales: string[]): string {
  const [value, unit, digits] =
    bytes >= 1e9
      ? [bytes / 1e9, 'gigabyte', 2]
      : bytes >= 1e6
        ? [bytes / 1e6, 'megabyte', bytes >= 1e8 ? 0 : 1]
        : bytes >= 1e3
          ? [bytes / 1e3, 'kilobyte', 0]
          : [Math.max(0, bytes), 'byte', 0];
  const factor = 10 ** (digits as number);
  return new Intl.NumberFormat(locales, {
    style: 'unit',
    unit: unit as string,
    unitDisplay: 'short',
    maximumFractionDigits: digits as number,
  }).format(Math.floor((value as number) * factor) / factor);
}

/** The locales Intl is asked for in an interface language (Twi is `ak` in CLDR). */
export const intlLocales = (locale: string): string[] => (locale === 'tw' ? ['tw', 'ak'] : [locale]);
