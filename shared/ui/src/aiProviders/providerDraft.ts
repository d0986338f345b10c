import type {
  AiProviderCreateRequest,
  AiProviderKind,
  AiProviderKindInfo,
  AiProviderTestRequest,
  AiProviderUpdateRequest,
  AiProviderView,
  PersonaId,
} from '@kasa/contracts';
import { baseUrlPlace, keyNeed } from './kinds';

// The form that adds or edits an AI provider: what the operator typed (a draft), what is wrong with it, and the
// requests it becomes (contracts in shared/contracts/src/aiProviders.ts). The operator console's form has every field;
// the setup page's Connect AI step has the main ones (withoutMoreSettings). Kept apart from the markup to be tested.

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

/** The longest text each field takes (the contract's limits): its input's maxLength. */
export const FIELD_MAX: Readonly<Record<DraftField, number>> = {
  name: 32,
  apiKey: 1000,
  baseURL: 500,
  model: 200,
  resourceName: 100,
  region: 50,
};

/** What can be wrong with a field; each frontend words it from its own catalogue. */
export type DraftProblem =
  | 'name'
  | 'nameOffline'
  | 'nameTaken'
  | 'keyLong'
  | 'keyRequired'
  | 'baseURL'
  | 'baseURLRequired'
  | 'baseURLKeep'
  | 'model'
  | 'modelLong'
  | 'resourceName'
  | 'region';
export type DraftProblems = Partial<Record<DraftField, DraftProblem>>;

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const NAME_MAX = FIELD_MAX.name;

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

/**
 * The draft as a form without "More settings" sends it (the setup page's Connect AI step): no address where only
 * "More settings" asks for one (one typed for the kind picked before is left behind), no persona models, the models'
 * vision guessed.
 */
export function withoutMoreSettings(draft: ProviderDraft, info: AiProviderKindInfo): ProviderDraft {
  return {
    ...draft,
    baseURL: baseUrlPlace(info) === 'main' ? draft.baseURL : '',
    personaModels: {},
    vision: 'auto',
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

/** Whether `text` is an http(s) URL. */
export const isHttpUrl = (text: string): boolean => {
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

/** What is wrong with the draft, field by field; empty when it can be sent. */
export function problemsOf(draft: ProviderDraft, info: AiProviderKindInfo, context: DraftContext): DraftProblems {
  const problems: DraftProblems = {};
  if (context.mode === 'create') {
    const name = draft.name.trim();
    if (name === 'offline') problems.name = 'nameOffline';
    else if (!NAME.test(name)) problems.name = 'name';
    else if (context.taken.includes(name)) problems.name = 'nameTaken';
  }
  const key = draft.apiKey.trim();
  if (key.length > FIELD_MAX.apiKey) problems.apiKey = 'keyLong';
  else if (keyNeed(info) === 'required' && !key && (context.mode === 'create' || draft.removeKey || !context.keySaved))
    problems.apiKey = 'keyRequired';
  const baseURL = draft.baseURL.trim();
  if (baseUrlPlace(info) !== 'none') {
    if (baseURL && (baseURL.length > FIELD_MAX.baseURL || !isHttpUrl(baseURL))) problems.baseURL = 'baseURL';
    else if (!baseURL && info.needsBaseURL && !(draft.kind === 'azure' && draft.resourceName.trim()))
      problems.baseURL = 'baseURLRequired';
    else if (!baseURL && context.mode === 'edit' && context.savedBaseURL) problems.baseURL = 'baseURLKeep';
  }
  if (!draft.model.trim()) problems.model = 'model';
  else if (draft.model.trim().length > FIELD_MAX.model) problems.model = 'modelLong';
  if (draft.kind === 'azure' && !draft.resourceName.trim() && !baseURL) problems.resourceName = 'resourceName';
  if (draft.kind === 'bedrock' && !draft.region.trim()) problems.region = 'region';
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
