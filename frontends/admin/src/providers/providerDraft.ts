import type {
  AiProviderCreateRequest,
  AiProviderKind,
  AiProviderKindInfo,
  AiProviderTestRequest,
  AiProviderUpdateRequest,
  AiProviderView,
  PersonaId,
} from '@kasa/contracts';
import type { MessageId } from '../i18n/useT';

// The add/edit form of an AI provider: what the operator typed (a draft), what is wrong with it, and the requests it
// becomes (contracts in shared/contracts/src/aiProviders.ts). Kept apart from the form's markup so that it is tested.

/** The personas, in the order the chat shows them (PersonaId in @kasa/contracts; a test keeps them equal). */
export const PERSONAS = ['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta'] as const satisfies readonly PersonaId[];

/** A persona's name as people read it: a product name, the same in every language. */
export const personaName = (persona: PersonaId): string => persona.charAt(0).toUpperCase() + persona.slice(1);

/** Whether the models see images: as guessed from the model's name, or said. */
export type VisionChoice = 'auto' | 'yes' | 'no';

export interface ProviderDraft {
  name: string;
  /** Whether the operator typed the name; until then it follows the kind. */
  nameEdited: boolean;
  kind: AiProviderKind;
  /** A new key; empty keeps the saved one (when editing) or sends none. */
  apiKey: string;
  /** Editing: remove the saved key. */
  removeKey: boolean;
  baseURL: string;
  model: string;
  personaModels: Partial<Record<PersonaId, string>>;
  vision: VisionChoice;
  /** Azure's resource. */
  resourceName: string;
  /** Bedrock's region. */
  region: string;
  enabled: boolean;
}

/** The fields of the form that can have a problem. */
export type DraftField = 'name' | 'apiKey' | 'baseURL' | 'model' | 'resourceName' | 'region';
export type DraftProblems = Partial<Record<DraftField, MessageId>>;

/** Whether a kind takes a key: required by the cloud providers, optional for a self-hosted OpenAI-style server. */
export type KeyNeed = 'required' | 'optional' | 'none';

/** Servers that speak OpenAI's API and may sit behind a key of their own (a proxy, a shared vLLM). */
const OPTIONAL_KEY_KINDS: ReadonlySet<AiProviderKind> = new Set(['openai-compatible', 'lmstudio', 'llamacpp', 'vllm']);

export function keyNeed(info: Pick<AiProviderKindInfo, 'kind' | 'needsKey'>): KeyNeed {
  if (info.needsKey) return 'required';
  return OPTIONAL_KEY_KINDS.has(info.kind) ? 'optional' : 'none';
}

/**
 * Where the form asks for the base URL: with the main fields when the kind needs one or runs on a server of its own,
 * under "More settings" for a cloud provider (an override few need), nowhere for the local model file.
 */
export function baseUrlPlace(info: AiProviderKindInfo): 'main' | 'more' | 'none' {
  if (info.kind === 'local') return 'none';
  if (info.needsBaseURL || info.defaultBaseURL || OPTIONAL_KEY_KINDS.has(info.kind) || info.kind === 'azure')
    return 'main';
  return 'more';
}

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const NAME_MAX = 32;

/**
 * A free name for a provider of `base` (a kind): `openai`, else `openai-2`, `openai-3`…, always a valid name
 * (lower-case, from a letter, at most 32 characters) and never `offline`.
 */
export function uniqueName(base: string, taken: readonly string[]): string {
  let stem = base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, NAME_MAX)
    .replace(/-+$/, '');
  if (!stem) stem = 'provider';
  const used = new Set([...taken, 'offline']);
  if (!used.has(stem)) return stem;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const name = `${stem.slice(0, NAME_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!used.has(name)) return name;
  }
}

/** A new provider of the kind `info` describes: its default model and address, a free name. */
export function newDraft(info: AiProviderKindInfo, taken: readonly string[]): ProviderDraft {
  return {
    name: uniqueName(info.kind, taken),
    nameEdited: false,
    kind: info.kind,
    apiKey: '',
    removeKey: false,
    baseURL: info.defaultBaseURL ?? '',
    model: info.defaultModel,
    personaModels: {},
    vision: 'auto',
    resourceName: '',
    region: '',
    enabled: true,
  };
}

/**
 * The draft after the operator picked another kind: the name follows the kind until they typed one; the model and
 * the address become the new kind's defaults unless they had changed the old kind's.
 */
export function withKind(
  draft: ProviderDraft,
  from: AiProviderKindInfo | undefined,
  to: AiProviderKindInfo,
  taken: readonly string[],
): ProviderDraft {
  const untouched = (value: string, fallback: string | undefined) => value.trim() === '' || value === (fallback ?? '');
  return {
    ...draft,
    kind: to.kind,
    name: draft.nameEdited ? draft.name : uniqueName(to.kind, taken),
    model: untouched(draft.model, from?.defaultModel) ? to.defaultModel : draft.model,
    baseURL: untouched(draft.baseURL, from?.defaultBaseURL) ? (to.defaultBaseURL ?? '') : draft.baseURL,
  };
}

/** A saved provider as a draft to edit: its key stays where it is (never shown), an empty field keeps it. */
export function draftOf(view: AiProviderView): ProviderDraft {
  return {
    name: view.name,
    nameEdited: true,
    kind: view.kind,
    apiKey: '',
    removeKey: false,
    baseURL: view.baseURL ?? '',
    model: view.model,
    personaModels: { ...view.personaModels },
    vision: view.vision ? 'yes' : 'no',
    resourceName: view.extra.resourceName ?? '',
    region: view.extra.region ?? '',
    enabled: view.enabled,
  };
}

const isHttpUrl = (text: string): boolean => {
  if (text.length > 500) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** The persona models the operator filled in, trimmed. */
function personaModelsOf(draft: ProviderDraft): Partial<Record<PersonaId, string>> {
  const models: Partial<Record<PersonaId, string>> = {};
  for (const persona of PERSONAS) {
    const model = draft.personaModels[persona]?.trim();
    if (model) models[persona] = model;
  }
  return models;
}

function extraOf(draft: ProviderDraft): { resourceName?: string; region?: string } {
  return {
    ...(draft.kind === 'azure' && draft.resourceName.trim() ? { resourceName: draft.resourceName.trim() } : {}),
    ...(draft.kind === 'bedrock' && draft.region.trim() ? { region: draft.region.trim() } : {}),
  };
}

/** What the form knows besides the draft. */
export interface DraftContext {
  mode: 'create' | 'edit';
  /** The names in the chain (the provider edited excluded). */
  taken: readonly string[];
  /** Editing: whether a key is saved for the provider. */
  keySaved?: boolean;
  /** Editing: the address saved for the provider. */
  savedBaseURL?: string;
}

/** What is wrong with the draft, field by field, as the console's messages; empty when it can be sent. */
export function problemsOf(draft: ProviderDraft, info: AiProviderKindInfo, context: DraftContext): DraftProblems {
  const problems: DraftProblems = {};
  if (context.mode === 'create') {
    const name = draft.name.trim();
    if (name === 'offline') problems.name = 'providers.problem.nameOffline';
    else if (!NAME.test(name)) problems.name = 'providers.problem.name';
    else if (context.taken.includes(name)) problems.name = 'providers.problem.nameTaken';
  }
  const key = draft.apiKey.trim();
  if (key.length > 1000) problems.apiKey = 'providers.problem.keyLong';
  else if (keyNeed(info) === 'required' && !key && (context.mode === 'create' || draft.removeKey || !context.keySaved))
    problems.apiKey = 'providers.problem.keyRequired';
  const baseURL = draft.baseURL.trim();
  if (baseUrlPlace(info) !== 'none') {
    if (baseURL && !isHttpUrl(baseURL)) problems.baseURL = 'providers.problem.baseURL';
    else if (!baseURL && info.needsBaseURL && !(draft.kind === 'azure' && draft.resourceName.trim()))
      problems.baseURL = 'providers.problem.baseURLRequired';
    else if (!baseURL && context.mode === 'edit' && context.savedBaseURL)
      problems.baseURL = 'providers.problem.baseURLKeep';
  }
  if (!draft.model.trim()) problems.model = 'providers.problem.model';
  else if (draft.model.trim().length > 200) problems.model = 'providers.problem.modelLong';
  if (draft.kind === 'azure' && !draft.resourceName.trim() && !baseURL)
    problems.resourceName = 'providers.problem.resourceName';
  if (draft.kind === 'bedrock' && !draft.region.trim()) problems.region = 'providers.problem.region';
  return problems;
}

/**
 * Whether saving is impossible because of the key: this Kasa cannot store keys (no CHAT_SECRETS_KEY) and the draft
 * carries one, or needs one that is not saved already.
 */
export function keyBlocked(
  draft: ProviderDraft,
  info: AiProviderKindInfo,
  keysStorable: boolean,
  context: Pick<DraftContext, 'mode' | 'keySaved'>,
): boolean {
  if (keysStorable) return false;
  if (draft.apiKey.trim() !== '' && keyNeed(info) !== 'none') return true;
  return keyNeed(info) === 'required' && (context.mode === 'create' || draft.removeKey || !context.keySaved);
}

/** The settings of a draft that a create request and a test of unsaved settings share. */
function settingsOf(draft: ProviderDraft, info: AiProviderKindInfo) {
  const key = draft.apiKey.trim();
  const baseURL = draft.baseURL.trim();
  const model = draft.model.trim();
  const personaModels = personaModelsOf(draft);
  const extra = extraOf(draft);
  return {
    ...(key && keyNeed(info) !== 'none' ? { apiKey: key } : {}),
    ...(baseURL && baseUrlPlace(info) !== 'none' ? { baseURL } : {}),
    ...(model ? { model } : {}),
    ...(Object.keys(personaModels).length ? { personaModels } : {}),
    ...(draft.vision === 'auto' ? {} : { vision: draft.vision === 'yes' }),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** POST /api/admin/providers: the new provider, leaving out what the operator left empty (the kind's defaults). */
export function createRequest(draft: ProviderDraft, info: AiProviderKindInfo): AiProviderCreateRequest {
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    ...settingsOf(draft, info),
    ...(draft.enabled ? {} : { enabled: false }),
  };
}

const sameRecord = (a: Record<string, string | undefined>, b: Record<string, string | undefined>) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a[key] ?? '') === (b[key] ?? ''));
};

/**
 * PATCH /api/admin/providers/{name}: only what changed (an absent field stays as it was). An empty key field keeps
 * the saved key; "Remove key" sends `apiKey: null`.
 */
export function updateRequest(draft: ProviderDraft, view: AiProviderView, info: AiProviderKindInfo) {
  const request: AiProviderUpdateRequest = {};
  const key = draft.apiKey.trim();
  if (draft.removeKey) request.apiKey = null;
  else if (key && keyNeed(info) !== 'none') request.apiKey = key;
  const baseURL = draft.baseURL.trim();
  if (baseURL && baseURL !== (view.baseURL ?? '') && baseUrlPlace(info) !== 'none') request.baseURL = baseURL;
  const model = draft.model.trim();
  if (model && model !== view.model) request.model = model;
  const personaModels = personaModelsOf(draft);
  if (!sameRecord(personaModels, view.personaModels)) request.personaModels = personaModels;
  if (draft.vision !== 'auto' && (draft.vision === 'yes') !== view.vision) request.vision = draft.vision === 'yes';
  const extra = extraOf(draft);
  if (!sameRecord(extra, view.extra)) request.extra = extra;
  if (draft.enabled !== view.enabled) request.enabled = draft.enabled;
  return request;
}

/**
 * POST /api/admin/provider-tests for what the form shows. Adding: the settings typed. Editing: the settings typed
 * when a new key is typed or the kind takes none; otherwise the saved provider with its saved key (the contract
 * cannot test new settings with a key it never returns), which `savedOnly` says so that the form can tell.
 */
export function testRequest(
  draft: ProviderDraft,
  info: AiProviderKindInfo,
  context: Pick<DraftContext, 'mode' | 'keySaved'>,
): { request: AiProviderTestRequest; savedOnly: boolean } {
  const usesSavedKey = context.mode === 'edit' && context.keySaved === true && !draft.removeKey && !draft.apiKey.trim();
  if (usesSavedKey) return { request: { name: draft.name }, savedOnly: true };
  return { request: { kind: draft.kind, ...settingsOf(draft, info) }, savedOnly: false };
}
