import { embeddingModelIdOf, type ProviderSettings } from '@kasa/ai-providers';
import {
  AI_PROVIDER_KINDS,
  AiProviderCreateRequest,
  AiProviderName,
  AiProviderOrderRequest,
  AiProviderTestRequest,
  AiProviderUpdateRequest,
  type AiProviderKind,
  type AiProviderList,
  type AiProviderView,
} from '@kasa/contracts';
import {
  identityOf,
  InputError,
  NotFoundError,
  operatorsOnly,
  parseInput,
  requestIdOf,
  type OperatorCheck,
} from '@kasa/service-kit';
import { Router, type Request, type Response } from 'express';
import type { ChatProvider } from '../providers/chatProvider';
import type { ProviderChain } from '../providers/providerChain';
import type { RecentAttempts } from '../providers/recentAttempts';
import {
  kindDefaults,
  problemsOf,
  settingsOfStored,
  type ChainSettings,
  type ConfiguredProvider,
} from '../providers/settings/chainSettings';
import { discoverOllama, testProvider } from '../providers/settings/providerTester';
import type { ChangeContext, ProviderSettingsStore } from '../providers/settings/providerSettingsStore';

export interface ProviderAdminDeps {
  operators: OperatorCheck;
  store: ProviderSettingsStore;
  settings: ChainSettings;
  chain: ProviderChain;
  recent: RecentAttempts;
  /** Builds a provider's client from its settings (as the chain does). */
  build: (settings: ProviderSettings) => ChatProvider;
  /** Where a local Ollama is looked for (its default port unless a test says otherwise). */
  ollamaUrl?: string;
}

function viewOf(
  entry: ConfiguredProvider,
  deps: ProviderAdminDeps,
  circuits: Map<string, AiProviderView['circuit']>,
): AiProviderView {
  const { settings, stored } = entry;
  const extra = {
    ...(settings.extra.resourceName ? { resourceName: settings.extra.resourceName } : {}),
    ...(settings.extra.region ? { region: settings.extra.region } : {}),
  };
  return {
    name: settings.name,
    kind: settings.kind as AiProviderKind,
    source: entry.source,
    enabled: entry.enabled,
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    model: settings.model,
    personaModels: settings.personaModels,
    vision: settings.vision,
    ...(embeddingModelIdOf(settings) ? { embeddingModel: embeddingModelIdOf(settings) } : {}),
    extra,
    // An environment key is shown as set, never a hint of it: it is not ours to show.
    key: stored
      ? { set: !!stored.apiKeySealed, ...(stored.keyHint ? { hint: `…${stored.keyHint}` } : {}) }
      : { set: !!settings.apiKey },
    circuit: circuits.get(settings.name) ?? 'closed',
    recent: deps.recent.of(settings.name),
    ...(stored ? { updatedAt: new Date(stored.updatedAt).toISOString() } : {}),
  };
}

/** Settings from the browser (not saved yet) as the client is built from them. */
const settingsOfInput = (name: string, input: Omit<AiProviderCreateRequest, 'name'>): ProviderSettings =>
  settingsOfStored(
    {
      name,
      ...input,
      personaModels: input.personaModels ?? {},
      extra: input.extra ?? {},
      enabled: true,
      updatedAt: new Date(),
    },
    input.apiKey,
  );

/** The settings, or a 400 naming each field that keeps them from working. */
function workable(settings: ProviderSettings): ProviderSettings {
  const problems = problemsOf(settings);
  if (problems.length) throw new InputError('The provider cannot work with these settings', problems);
  return settings;
}

const circuitsOf = (chain: ProviderChain) => new Map(chain.describe().map((p) => [p.name, p.circuit]));

const KINDS = AI_PROVIDER_KINDS.map((kind) => ({ kind, ...kindDefaults(kind) }));

/**
 * The operators' AI provider settings, `/api/admin/providers*` (services/chat/README.md#ai-providers-in-the-browser):
 * list, add, change, remove, order and test providers, and find a local Ollama. Every change is written, then the
 * chain of this replica is reloaded at once and every other replica reloads on the change's event. To anyone who is
 * not an operator the routes do not exist (404).
 */
export function createProviderAdminRouter(deps: ProviderAdminDeps): Router {
  const { store, settings } = deps;
  const router = Router();
  // Every operator route of chat (those after this router too: the local model's) is behind the role check.
  router.use('/api/admin', operatorsOnly(deps.operators));

  const list = async (): Promise<AiProviderList> => {
    await settings.reload();
    return {
      providers: settings.list().map((entry) => viewOf(entry, deps, circuitsOf(deps.chain))),
      kinds: KINDS,
      keysStorable: store.keysStorable,
    };
  };
  const contextOf = (req: Request, res: Response): ChangeContext => {
    const clientIp = req.get('x-forwarded-for')?.split(',')[0]?.trim() || req.ip;
    const requestId = requestIdOf(req);
    return {
      actor: { userId: identityOf(res).userId, ...(clientIp ? { clientIp: clientIp.slice(0, 64) } : {}) },
      ...(requestId ? { requestId } : {}),
    };
  };
  const viewByName = async (name: string): Promise<AiProviderView> => {
    await settings.reload(true);
    const entry = settings.list().find((e) => e.settings.name === name);
    if (!entry) throw new NotFoundError(`No provider named '${name}'`);
    return viewOf(entry, deps, circuitsOf(deps.chain));
  };
  const nameOf = (req: Request): string => {
    const parsed = AiProviderName.safeParse(req.params.name);
    if (!parsed.success) throw new NotFoundError(`No provider named '${String(req.params.name)}'`);
    return parsed.data;
  };

  router.get('/api/admin/providers', async (_req, res) => {
    res.json(await list());
  });

  router.post('/api/admin/providers', async (req, res) => {
    const input = parseInput(AiProviderCreateRequest, req.body);
    workable(settingsOfInput(input.name, input));
    await store.add(input, contextOf(req, res));
    res.status(201).json(await viewByName(input.name));
  });

  router.patch('/api/admin/providers/:name', async (req, res) => {
    const name = nameOf(req);
    const patch = parseInput(AiProviderUpdateRequest, req.body);
    const current = (await store.read()).providers.find((p) => p.name === name);
    if (current) {
      const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      // Only whether a key will be there matters to the check: a stand-in for the sealed one that stays.
      const key = patch.apiKey === null ? undefined : (patch.apiKey ?? (current.apiKeySealed ? 'saved' : undefined));
      workable(settingsOfStored(next as typeof current, key));
    }
    await store.update(name, patch, contextOf(req, res));
    res.json(await viewByName(name));
  });

  router.delete('/api/admin/providers/:name', async (req, res) => {
    await store.remove(nameOf(req), contextOf(req, res));
    await settings.reload(true);
    res.status(204).end();
  });

  router.put('/api/admin/provider-order', async (req, res) => {
    const { names } = parseInput(AiProviderOrderRequest, req.body);
    await store.reorder(names, contextOf(req, res));
    res.json(await list());
  });

  router.post('/api/admin/provider-tests', async (req, res) => {
    const input = parseInput(AiProviderTestRequest, req.body);
    let target: ProviderSettings;
    if ('name' in input) {
      await settings.reload();
      const entry = settings.list().find((e) => e.settings.name === input.name);
      if (!entry) throw new NotFoundError(`No provider named '${input.name}'`);
      target = entry.settings;
    } else {
      target = workable(settingsOfInput('connection-test', input));
    }
    res.json(await testProvider(target, deps.build));
  });

  router.get('/api/admin/provider-discovery', async (_req, res) => {
    res.json({ ollama: await discoverOllama(deps.ollamaUrl) });
  });

  return router;
}

/**
 * `GET /internal/ai-providers` (services only: the gateway routes no `/internal` path, and the network policy lets only
 * voice in): the providers operators added in the browser, enabled ones in chain order, keys opened — what the voice
 * service's translation and speech to text use besides their own variables. `version` changes with every change.
 */
export function createInternalProvidersRouter(settings: ChainSettings): Router {
  const router = Router();
  router.get('/internal/ai-providers', async (_req, res) => {
    await settings.reload();
    res.set('Cache-Control', 'no-store').json({
      version: settings.version,
      providers: settings
        .list()
        .filter((entry) => entry.source === 'console' && entry.enabled)
        .map((entry) => entry.settings),
    });
  });
  return router;
}
