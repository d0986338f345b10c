import {
  DEFAULT_BASE_URLS,
  PROVIDER_KINDS,
  seesImagesByDefault,
  type KnownProviderKind,
  type ProviderSettings,
} from '@kasa/ai-providers';
import type { AiProviderKind } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import type { ChatProvider } from '../chatProvider';
import type { ProviderChain } from '../providerChain';
import type { ProviderSettingsDocument, ProviderSettingsStore, StoredProvider } from './providerSettingsStore';

/** One provider of the chain as configured, wherever it was set. */
export interface ConfiguredProvider {
  settings: ProviderSettings;
  source: 'environment' | 'console';
  enabled: boolean;
  /** Set in the browser: what is stored (the key sealed). */
  stored?: StoredProvider;
}

const knownKind = (kind: AiProviderKind) =>
  kind in PROVIDER_KINDS ? PROVIDER_KINDS[kind as KnownProviderKind] : undefined;

/** A kind's defaults, for the form that adds one and for stored providers that leave a field out. */
export function kindDefaults(kind: AiProviderKind): {
  needsKey: boolean;
  needsBaseURL: boolean;
  defaultModel: string;
  defaultBaseURL?: string;
} {
  const known = knownKind(kind);
  const defaultBaseURL = DEFAULT_BASE_URLS[kind as KnownProviderKind];
  return {
    needsKey: known?.needsKey ?? false,
    needsBaseURL: !known,
    defaultModel: known?.model ?? '',
    ...(defaultBaseURL ? { defaultBaseURL } : {}),
  };
}

/**
 * What a provider's settings lack to work, as `field: message` problems (the same rules as the environment
 * variables': a key for the kinds that need one, an address for an OpenAI-compatible server, a model, Azure's
 * resource or address, Bedrock's region).
 */
export function problemsOf(settings: ProviderSettings): { path: string; message: string }[] {
  const defaults = kindDefaults(settings.kind as AiProviderKind);
  const problems: { path: string; message: string }[] = [];
  if (defaults.needsKey && !settings.apiKey)
    problems.push({ path: 'apiKey', message: `is required for ${settings.kind}` });
  if (defaults.needsBaseURL && !settings.baseURL)
    problems.push({ path: 'baseURL', message: 'is required for an OpenAI-compatible server' });
  if (!settings.model) problems.push({ path: 'model', message: 'is required (the model or deployment name)' });
  if (settings.kind === 'azure' && !settings.extra.resourceName && !settings.baseURL)
    problems.push({ path: 'extra.resourceName', message: 'or baseURL is required for Azure' });
  if (settings.kind === 'bedrock' && !settings.extra.region)
    problems.push({ path: 'extra.region', message: 'is required for Bedrock' });
  return problems;
}

/** A stored provider as the settings its client is built from (its key opened). */
export function settingsOfStored(stored: StoredProvider, apiKey: string | undefined): ProviderSettings {
  const defaults = kindDefaults(stored.kind);
  const model = stored.model ?? defaults.defaultModel;
  const baseURL = stored.baseURL ?? defaults.defaultBaseURL;
  const extra: Record<string, string> = {};
  if (stored.extra.resourceName) extra.resourceName = stored.extra.resourceName;
  if (stored.extra.region) extra.region = stored.extra.region;
  return {
    name: stored.name,
    kind: stored.kind,
    ...(apiKey ? { apiKey } : {}),
    ...(baseURL ? { baseURL } : {}),
    model,
    personaModels: stored.personaModels,
    extra,
    vision: stored.vision ?? seesImagesByDefault(stored.kind, model),
    ...(stored.embeddingModel ? { embeddingModel: stored.embeddingModel } : {}),
  };
}

/** Compares two providers' settings (a changed one gets a new client and a closed circuit). */
const fingerprint = (settings: ProviderSettings): string => JSON.stringify(settings);

/**
 * Keeps the running chain in step with the settings: the environment's providers and those operators added, in the
 * stored order. `reload()` runs at start, on every `chat.providers.changed` (each replica hears it) and every
 * half-minute in case an event was missed; it reads one document and rebuilds only providers whose settings changed.
 */
export class ChainSettings {
  private applied = -1;
  private configured: ConfiguredProvider[];
  private readonly clients = new Map<string, { fingerprint: string; provider: ChatProvider }>();
  /** Providers put in the chain by whoever built it (a test's own), kept after the configured ones. */
  private readonly fixed: ChatProvider[];

  constructor(
    private readonly deps: {
      store: ProviderSettingsStore;
      /** The providers of CHAT_PROVIDERS, in order. */
      environment: readonly ProviderSettings[];
      chain: ProviderChain;
      /** Builds a provider's client (the AI SDK's, or the local model's). */
      build: (settings: ProviderSettings) => ChatProvider;
      logger: Logger;
    },
  ) {
    this.configured = deps.environment.map((settings) => ({ settings, source: 'environment', enabled: true }));
    const environment = new Map(deps.environment.map((settings) => [settings.name, settings]));
    this.fixed = deps.chain.list().filter((provider) => !environment.has(provider.name));
    for (const provider of deps.chain.list()) {
      const settings = environment.get(provider.name);
      if (settings) this.clients.set(provider.name, { fingerprint: fingerprint(settings), provider });
    }
  }

  /** The version of the stored settings last applied (0: nothing stored yet; -1: not loaded yet). */
  get version(): number {
    return this.applied;
  }

  /** Every provider in chain order, enabled or not, as last loaded. */
  list(): readonly ConfiguredProvider[] {
    return this.configured;
  }

  /** Reads the stored settings and applies them if they changed since the last time; `force` applies them anyway. */
  async reload(force = false): Promise<void> {
    const doc = await this.deps.store.read();
    if (!force && doc.version === this.applied) return;
    this.apply(doc);
  }

  private apply(doc: ProviderSettingsDocument): void {
    const { store, environment, chain, build, logger } = this.deps;
    const byName = new Map<string, ConfiguredProvider>();
    for (const settings of environment) byName.set(settings.name, { settings, source: 'environment', enabled: true });
    for (const stored of doc.providers) {
      let apiKey: string | undefined;
      try {
        apiKey = store.openKey(stored);
      } catch (err) {
        // Another key than the one it was saved with (CHAT_SECRETS_KEY changed): the operator must enter it again.
        logger.error(
          { provider: stored.name, err: (err as Error).message },
          'the saved key of an AI provider cannot be opened; the provider is left out until its key is entered again',
        );
        continue;
      }
      byName.set(stored.name, {
        settings: settingsOfStored(stored, apiKey),
        source: 'console',
        enabled: stored.enabled,
        stored,
      });
    }
    const configured = store.orderOf(doc).flatMap((name) => byName.get(name) ?? []);
    const changed: string[] = [];
    const providers: ChatProvider[] = [];
    for (const entry of configured) {
      if (!entry.enabled) continue;
      const print = fingerprint(entry.settings);
      const known = this.clients.get(entry.settings.name);
      if (known?.fingerprint === print) {
        providers.push(known.provider);
        continue;
      }
      try {
        const provider = build(entry.settings);
        this.clients.set(entry.settings.name, { fingerprint: print, provider });
        if (known) changed.push(entry.settings.name);
        providers.push(provider);
      } catch (err) {
        logger.error(
          { provider: entry.settings.name, err: (err as Error).message },
          'an AI provider could not be set up; it is left out of the chain',
        );
      }
    }
    const names = new Set(configured.map((entry) => entry.settings.name));
    for (const name of [...this.clients.keys()])
      if (!names.has(name)) {
        this.clients.delete(name);
        changed.push(name);
      }
    chain.replace([...providers, ...this.fixed], changed);
    this.configured = configured;
    this.applied = doc.version;
    if (doc.version > 0)
      logger.info({ providers: providers.map((p) => p.name), version: doc.version }, 'provider chain updated');
  }
}
