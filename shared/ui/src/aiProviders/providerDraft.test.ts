import {
  AI_PROVIDER_KINDS,
  AiProviderCreateRequest,
  AiProviderTestRequest,
  AiProviderUpdateRequest,
  PersonaId,
  type AiProviderKindInfo,
  type AiProviderView,
} from '@kasa/contracts';
import { baseUrlPlace, keyNeed, kindName } from './kinds';
import {
  PERSONAS,
  createRequest,
  draftOf,
  keyBlocked,
  newDraft,
  problemsOf,
  testRequest,
  uniqueName,
  updateRequest,
  withKind,
  withoutMoreSettings,
} from './providerDraft';

const OPENAI: AiProviderKindInfo = { kind: 'openai', needsKey: true, needsBaseURL: false, defaultModel: 'gpt-4o-mini' };
const COMPATIBLE: AiProviderKindInfo = {
  kind: 'openai-compatible',
  needsKey: false,
  needsBaseURL: true,
  defaultModel: 'local-model',
};
const OLLAMA: AiProviderKindInfo = {
  kind: 'ollama',
  needsKey: false,
  needsBaseURL: false,
  defaultModel: 'llama3.2',
  defaultBaseURL: 'http://127.0.0.1:11434/api',
};
const LOCAL: AiProviderKindInfo = { kind: 'local', needsKey: false, needsBaseURL: false, defaultModel: 'kasa.gguf' };
const AZURE: AiProviderKindInfo = { kind: 'azure', needsKey: true, needsBaseURL: false, defaultModel: '' };

const saved = (view: Partial<AiProviderView> = {}): AiProviderView => ({
  name: 'openai',
  kind: 'openai',
  source: 'console',
  enabled: true,
  model: 'gpt-4o-mini',
  personaModels: {},
  vision: true,
  extra: {},
  key: { set: true, hint: 'abcd' },
  circuit: 'closed',
  recent: { attempts: 0, failures: 0, errorRate: 0 },
  ...view,
});

describe('a provider kind’s name', () => {
  // A frontend's catalogue, read by id.
  const t = (id: 'kind.compatible' | 'kind.local') =>
    ({ 'kind.compatible': 'Serveur compatible', 'kind.local': 'Fichier' })[id];

  it('is the provider’s own name, or the frontend’s words for a kind that is not a brand', () => {
    expect(kindName('google', t, {})).toBe('Google Gemini');
    expect(kindName('llamacpp', t, {})).toBe('llama.cpp');
    expect(kindName('openai-compatible', t, { 'openai-compatible': 'kind.compatible' })).toBe('Serveur compatible');
    expect(kindName('local', t, { 'openai-compatible': 'kind.compatible', local: 'kind.local' })).toBe('Fichier');
    expect(kindName('local', t, {})).toBe('local');
  });

  it('names every kind of the contract', () => {
    const words = { 'openai-compatible': 'kind.compatible', local: 'kind.local' } as const;
    for (const kind of AI_PROVIDER_KINDS) expect(kindName(kind, t, words)).not.toBe(kind);
  });
});

describe('what a form asks for each kind', () => {
  it('asks a cloud provider for a key, a self-hosted server for an optional one, a local model for none', () => {
    expect(keyNeed(OPENAI)).toBe('required');
    expect(keyNeed(COMPATIBLE)).toBe('optional');
    expect(keyNeed(OLLAMA)).toBe('none');
    expect(keyNeed(LOCAL)).toBe('none');
  });

  it('shows the address first where the kind needs or defaults one, and never for the local model', () => {
    expect(baseUrlPlace(COMPATIBLE)).toBe('main');
    expect(baseUrlPlace(OLLAMA)).toBe('main');
    expect(baseUrlPlace(AZURE)).toBe('main');
    expect(baseUrlPlace(OPENAI)).toBe('more');
    expect(baseUrlPlace(LOCAL)).toBe('none');
  });
});

describe('the personas the form offers models for', () => {
  it('are the contract’s personas', () => {
    expect([...PERSONAS].sort()).toEqual([...PersonaId.options].sort());
  });
});

describe('a provider’s name', () => {
  it('is the kind’s name when free, else numbered, always valid and never offline', () => {
    expect(uniqueName('openai', [])).toBe('openai');
    expect(uniqueName('openai', ['openai', 'openai-2'])).toBe('openai-3');
    expect(uniqueName('openai-compatible', [])).toBe('openai-compatible');
    expect(uniqueName('offline', [])).toBe('offline-2');
    expect(uniqueName('42 Fast Models!', [])).toBe('fast-models');
    const long = uniqueName('a'.repeat(40), ['a'.repeat(32)]);
    expect(long).toBe(`${'a'.repeat(30)}-2`);
    expect(long).toMatch(/^[a-z][a-z0-9-]{0,31}$/);
  });
});

describe('a new draft', () => {
  it('starts with the kind’s default model and address, and follows a new kind until the operator typed', () => {
    const draft = newDraft(OLLAMA, ['ollama']);
    expect(draft).toMatchObject({ name: 'ollama-2', model: 'llama3.2', baseURL: 'http://127.0.0.1:11434/api' });
    const switched = withKind(draft, OLLAMA, OPENAI, ['ollama']);
    expect(switched).toMatchObject({ kind: 'openai', name: 'openai', model: 'gpt-4o-mini', baseURL: '' });

    const typed = { ...draft, name: 'home', nameEdited: true, model: 'qwen2.5', baseURL: 'http://10.0.0.5:11434/api' };
    expect(withKind(typed, OLLAMA, COMPATIBLE, [])).toMatchObject({
      name: 'home',
      model: 'qwen2.5',
      baseURL: 'http://10.0.0.5:11434/api',
    });
  });
});

describe('the problems of a draft', () => {
  const create = { mode: 'create' as const, taken: ['openai'] };

  it('says what is missing or wrong, field by field', () => {
    const draft = { ...newDraft(OPENAI, []), name: 'Open AI', model: ' ' };
    expect(problemsOf(draft, OPENAI, create)).toEqual({ name: 'name', apiKey: 'keyRequired', model: 'model' });
    expect(problemsOf({ ...draft, name: 'openai' }, OPENAI, create).name).toBe('nameTaken');
    expect(problemsOf({ ...draft, name: 'offline' }, OPENAI, create).name).toBe('nameOffline');
    const server = { ...newDraft(COMPATIBLE, []), baseURL: 'ftp://models.example' };
    expect(problemsOf(server, COMPATIBLE, create)).toEqual({ baseURL: 'baseURL' });
    expect(problemsOf({ ...server, baseURL: 'localhost:8000' }, COMPATIBLE, create)).toEqual({ baseURL: 'baseURL' });
    expect(problemsOf({ ...server, baseURL: `http://x.example/${'a'.repeat(500)}` }, COMPATIBLE, create)).toEqual({
      baseURL: 'baseURL',
    });
    expect(problemsOf({ ...server, baseURL: '' }, COMPATIBLE, create)).toEqual({ baseURL: 'baseURLRequired' });
    expect(problemsOf({ ...newDraft(AZURE, []), apiKey: 'k', model: 'gpt' }, AZURE, create)).toEqual({
      resourceName: 'resourceName',
    });
    expect(
      problemsOf({ ...draft, name: 'work', apiKey: 'k'.repeat(1001), model: 'm'.repeat(201) }, OPENAI, create),
    ).toEqual({ apiKey: 'keyLong', model: 'modelLong' });
    const edit = { mode: 'edit' as const, taken: [], keySaved: true, savedBaseURL: 'http://10.0.0.5:9000/v1' };
    expect(problemsOf({ ...server, baseURL: '' }, { ...COMPATIBLE, needsBaseURL: false }, edit)).toEqual({
      baseURL: 'baseURLKeep',
    });
  });

  it('accepts a complete draft', () => {
    expect(problemsOf({ ...newDraft(OPENAI, []), name: 'work', apiKey: 'sk-1' }, OPENAI, create)).toEqual({});
    expect(problemsOf(newDraft(OLLAMA, []), OLLAMA, create)).toEqual({});
  });

  it('keeps a saved key when the key field is left empty, and asks for one when it is removed', () => {
    const draft = draftOf(saved());
    const edit = { mode: 'edit' as const, taken: [], keySaved: true };
    expect(problemsOf(draft, OPENAI, edit)).toEqual({});
    expect(problemsOf({ ...draft, removeKey: true }, OPENAI, edit)).toEqual({ apiKey: 'keyRequired' });
  });

  it('blocks saving a key where keys cannot be stored, but not a provider without one', () => {
    const create = { mode: 'create' as const };
    expect(keyBlocked(newDraft(OPENAI, []), OPENAI, false, create)).toBe(true);
    expect(keyBlocked(newDraft(OPENAI, []), OPENAI, true, create)).toBe(false);
    expect(keyBlocked(newDraft(OLLAMA, []), OLLAMA, false, create)).toBe(false);
    expect(keyBlocked({ ...newDraft(COMPATIBLE, []), apiKey: 'secret' }, COMPATIBLE, false, create)).toBe(true);
    expect(keyBlocked(draftOf(saved()), OPENAI, false, { mode: 'edit', keySaved: true })).toBe(false);
  });
});

describe('the requests a draft becomes', () => {
  it('adds a provider with what was typed, leaving defaults and empty fields out', () => {
    const draft = {
      ...newDraft(COMPATIBLE, []),
      name: 'lab',
      nameEdited: true,
      apiKey: '  sk-lab  ',
      baseURL: 'http://127.0.0.1:9000/v1',
      personaModels: { dokta: ' med-model ', merla: '' },
      vision: 'no' as const,
    };
    const request = createRequest(draft, COMPATIBLE);
    expect(request).toEqual({
      name: 'lab',
      kind: 'openai-compatible',
      apiKey: 'sk-lab',
      baseURL: 'http://127.0.0.1:9000/v1',
      model: 'local-model',
      personaModels: { dokta: 'med-model' },
      vision: false,
    });
    expect(AiProviderCreateRequest.safeParse(request).success).toBe(true);

    const local = createRequest({ ...newDraft(LOCAL, []), model: 'qwen.gguf', enabled: false }, LOCAL);
    expect(local).toEqual({ name: 'local', kind: 'local', model: 'qwen.gguf', enabled: false });
  });

  it('changes only what changed; an empty key keeps it and Remove key sends null', () => {
    const view = saved({ personaModels: { merla: 'gpt-4o' } });
    const draft = draftOf(view);
    expect(updateRequest(draft, view, OPENAI)).toEqual({});
    expect(updateRequest({ ...draft, apiKey: 'sk-new' }, view, OPENAI)).toEqual({ apiKey: 'sk-new' });
    expect(updateRequest({ ...draft, removeKey: true, apiKey: 'ignored' }, view, OPENAI)).toEqual({ apiKey: null });
    const changed = updateRequest(
      { ...draft, model: 'gpt-4.1-mini', personaModels: { merla: '' }, vision: 'no', enabled: false },
      view,
      OPENAI,
    );
    expect(changed).toEqual({ model: 'gpt-4.1-mini', personaModels: {}, vision: false, enabled: false });
    expect(AiProviderUpdateRequest.safeParse(changed).success).toBe(true);
    expect(AiProviderUpdateRequest.safeParse({ apiKey: null }).success).toBe(true);
  });

  it('tests typed settings, or the saved provider when its saved key is what the test needs', () => {
    const adding = { ...newDraft(COMPATIBLE, []), baseURL: 'http://127.0.0.1:9000/v1' };
    const unsaved = testRequest(adding, COMPATIBLE, { mode: 'create' });
    expect(unsaved).toEqual({
      request: { kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9000/v1', model: 'local-model' },
      savedOnly: false,
    });
    expect(AiProviderTestRequest.safeParse(unsaved.request).success).toBe(true);

    const editing = draftOf(saved());
    expect(testRequest(editing, OPENAI, { mode: 'edit', keySaved: true })).toEqual({
      request: { name: 'openai' },
      savedOnly: true,
    });
    expect(testRequest({ ...editing, apiKey: 'sk-2' }, OPENAI, { mode: 'edit', keySaved: true }).request).toEqual({
      kind: 'openai',
      apiKey: 'sk-2',
      model: 'gpt-4o-mini',
      vision: true,
    });
  });
});

describe('the draft of a form without “More settings” (the setup page’s Connect AI step)', () => {
  it('sends what the main fields show: an address only where they ask for one', () => {
    const typed = { ...newDraft(COMPATIBLE, []), baseURL: 'http://127.0.0.1:9/v1', vision: 'no' as const };
    // The operator typed a server's address, then picked OpenAI, whose address only “More settings” asks for.
    const openai = withoutMoreSettings({ ...withKind(typed, COMPATIBLE, OPENAI, []), apiKey: ' sk-1 ' }, OPENAI);
    expect(problemsOf(openai, OPENAI, { mode: 'create', taken: [] })).toEqual({});
    expect(testRequest(openai, OPENAI, { mode: 'create' }).request).toEqual({
      kind: 'openai',
      apiKey: 'sk-1',
      model: 'gpt-4o-mini',
    });
    const server = withoutMoreSettings({ ...typed, model: ' fake ' }, COMPATIBLE);
    expect(createRequest({ ...server, name: uniqueName(server.kind, ['openai-compatible']) }, COMPATIBLE)).toEqual({
      name: 'openai-compatible-2',
      kind: 'openai-compatible',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'fake',
    });
  });
});
