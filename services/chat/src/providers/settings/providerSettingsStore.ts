import {
  ConflictError,
  InputError,
  NotFoundError,
  type Logger,
  type Outbox,
  type OutboxEntry,
  type SecretBox,
} from '@kasa/service-kit';
import type {
  AiProviderCreateRequest,
  AiProviderKind,
  AiProviderUpdateRequest,
  EventActor,
  PersonaId,
} from '@kasa/contracts';
import { Schema, type Connection, type Model } from 'mongoose';

/** One provider an operator added in the browser, as stored: its key sealed (never in clear, never returned). */
export interface StoredProvider {
  name: string;
  kind: AiProviderKind;
  /** `v1.<iv>.<tag>.<ciphertext>` (the kit's SecretBox), sealed for `provider:<name>:api-key`. */
  apiKeySealed?: string;
  /** The key's last four characters, to tell keys apart. */
  keyHint?: string;
  baseURL?: string;
  model?: string;
  personaModels: Partial<Record<PersonaId, string>>;
  vision?: boolean;
  embeddingModel?: string;
  extra: { resourceName?: string; region?: string };
  enabled: boolean;
  updatedAt: Date;
}

/**
 * The whole chain's settings in one document (`_id: 'chain'`): the providers added in the browser and the order of
 * every provider (those from the environment too). One document so that each change is one atomic write, with
 * `version` for optimistic concurrency, and so that every replica reloads it with one read.
 */
export interface ProviderSettingsDocument {
  _id: 'chain';
  providers: StoredProvider[];
  order: string[];
  version: number;
  updatedAt: Date;
  /** The last change's event (the kit's outbox): published after the write, republished until the broker confirms. */
  changeEvent?: OutboxEntry<'chat.providers.changed'>;
}

const COLLECTION = 'ai_provider_settings';
const DOCUMENT_ID = 'chain';
/** The most providers a chain holds (from the environment and the browser together). */
export const MAX_PROVIDERS = 50;
const QUERY_TIME_LIMIT_MS = 5_000;
const WRITE_RETRIES = 5;

export function providerSettingsModel(db: Connection): Model<ProviderSettingsDocument> {
  const existing = db.models.ProviderSettings as Model<ProviderSettingsDocument> | undefined;
  if (existing) return existing;
  const schema = new Schema<ProviderSettingsDocument>(
    {
      _id: { type: String, required: true },
      providers: { type: Schema.Types.Mixed, default: [] },
      order: { type: [String], default: [] },
      version: { type: Number, required: true, default: 0 },
      updatedAt: { type: Date, required: true },
      changeEvent: { type: Schema.Types.Mixed },
    },
    { collection: COLLECTION, versionKey: false, minimize: false },
  );
  return db.model<ProviderSettingsDocument>('ProviderSettings', schema);
}

/** What sealing a key is bound to: a sealed key copied onto another provider does not open there. */
export const keyPurpose = (name: string): string => `provider:${name}:api-key`;

const EMPTY: ProviderSettingsDocument = {
  _id: DOCUMENT_ID,
  providers: [],
  order: [],
  version: 0,
  updatedAt: new Date(0),
};

/** Who changed the chain, and under which request (for the event and the audit log). */
export interface ChangeContext {
  actor: EventActor;
  requestId?: string;
}

/**
 * The operators' AI provider settings in the chat database. Every change is one conditional write of the chain
 * document (retried when another operator changed it in between) carrying its `chat.providers.changed` event, which
 * every replica hears (reload) and auth records (audit log).
 */
export class ProviderSettingsStore {
  private readonly model: Model<ProviderSettingsDocument>;

  constructor(
    private readonly deps: {
      db: Connection;
      /** Null when keys cannot be saved (production without CHAT_SECRETS_KEY). */
      box: SecretBox | null;
      outbox: Outbox;
      logger: Logger;
      /** The names of the providers set by environment variables, in their order (read-only here). */
      environmentNames: readonly string[];
    },
  ) {
    this.model = providerSettingsModel(deps.db);
  }

  get keysStorable(): boolean {
    return this.deps.box !== null;
  }

  /** The chain's settings as stored (an empty chain before the first change). */
  async read(): Promise<ProviderSettingsDocument> {
    const doc = await this.model.findById(DOCUMENT_ID).maxTimeMS(QUERY_TIME_LIMIT_MS).lean<ProviderSettingsDocument>();
    return doc ?? { ...EMPTY, providers: [], order: [] };
  }

  /** A stored provider's key in clear, for building its client; undefined without one. */
  openKey(provider: StoredProvider): string | undefined {
    if (!provider.apiKeySealed) return undefined;
    if (!this.deps.box) throw new Error('CHAT_SECRETS_KEY is not set: the saved key cannot be opened');
    return this.deps.box.open(provider.apiKeySealed, keyPurpose(provider.name));
  }

  async add(input: AiProviderCreateRequest, context: ChangeContext): Promise<StoredProvider> {
    if (this.deps.environmentNames.includes(input.name))
      throw new ConflictError(`A provider named '${input.name}' is set by environment variables; choose another name`);
    const stored: StoredProvider = {
      name: input.name,
      kind: input.kind,
      ...this.sealed(input.name, input.apiKey),
      ...(input.baseURL ? { baseURL: input.baseURL } : {}),
      ...(input.model ? { model: input.model } : {}),
      personaModels: input.personaModels ?? {},
      ...(input.vision !== undefined ? { vision: input.vision } : {}),
      ...(input.embeddingModel ? { embeddingModel: input.embeddingModel } : {}),
      extra: input.extra ?? {},
      enabled: input.enabled ?? true,
      updatedAt: new Date(),
    };
    await this.change(context, (doc) => {
      if (doc.providers.some((p) => p.name === input.name))
        throw new ConflictError(`A provider named '${input.name}' exists already`);
      if (this.allNames(doc).length >= MAX_PROVIDERS)
        throw new ConflictError(`A chain holds at most ${MAX_PROVIDERS} providers; remove one first`);
      return {
        providers: [...doc.providers, stored],
        order: [...this.orderOf(doc), input.name],
        event: { change: 'added', name: input.name, kind: input.kind, keyChanged: !!input.apiKey },
      };
    });
    return stored;
  }

  async update(name: string, patch: AiProviderUpdateRequest, context: ChangeContext): Promise<StoredProvider> {
    this.refuseEnvironment(name);
    const fields = Object.keys(patch).filter((key) => (patch as Record<string, unknown>)[key] !== undefined);
    const keyFields =
      patch.apiKey === null
        ? { apiKeySealed: undefined, keyHint: undefined }
        : patch.apiKey !== undefined
          ? this.sealed(name, patch.apiKey)
          : {};
    let updated: StoredProvider | undefined;
    await this.change(context, (doc) => {
      const current = doc.providers.find((p) => p.name === name);
      if (!current) throw new NotFoundError(`No provider named '${name}' was added here`);
      const next: StoredProvider = {
        ...current,
        ...(patch.baseURL !== undefined ? { baseURL: patch.baseURL } : {}),
        ...(patch.model !== undefined ? { model: patch.model } : {}),
        ...(patch.personaModels !== undefined ? { personaModels: patch.personaModels } : {}),
        ...(patch.vision !== undefined ? { vision: patch.vision } : {}),
        ...(patch.embeddingModel !== undefined ? { embeddingModel: patch.embeddingModel } : {}),
        ...(patch.extra !== undefined ? { extra: patch.extra } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...keyFields,
        updatedAt: new Date(),
      };
      if (patch.apiKey === null) {
        delete next.apiKeySealed;
        delete next.keyHint;
      }
      updated = next;
      return {
        providers: doc.providers.map((p) => (p.name === name ? next : p)),
        order: this.orderOf(doc),
        event: { change: 'updated', name, kind: current.kind, keyChanged: patch.apiKey !== undefined, fields },
      };
    });
    return updated!;
  }

  async remove(name: string, context: ChangeContext): Promise<void> {
    this.refuseEnvironment(name);
    await this.change(context, (doc) => {
      const current = doc.providers.find((p) => p.name === name);
      if (!current) throw new NotFoundError(`No provider named '${name}' was added here`);
      return {
        providers: doc.providers.filter((p) => p.name !== name),
        order: this.orderOf(doc).filter((n) => n !== name),
        event: { change: 'removed', name, kind: current.kind },
      };
    });
  }

  /** A new order of the whole chain: every provider (from the environment too) exactly once. */
  async reorder(names: string[], context: ChangeContext): Promise<void> {
    await this.change(context, (doc) => {
      const all = this.allNames(doc);
      const given = new Set(names);
      const missing = all.filter((n) => !given.has(n));
      const unknown = names.filter((n) => !all.includes(n));
      if (given.size !== names.length || missing.length > 0 || unknown.length > 0)
        throw new InputError('names must list every provider of the chain exactly once', [
          ...(missing.length ? [{ path: 'names', message: `missing: ${missing.join(', ')}` }] : []),
          ...(unknown.length ? [{ path: 'names', message: `unknown: ${unknown.join(', ')}` }] : []),
          ...(given.size !== names.length ? [{ path: 'names', message: 'a name is listed twice' }] : []),
        ]);
      return { providers: doc.providers, order: names, event: { change: 'reordered' } };
    });
  }

  /**
   * The chain's order: the stored order of the providers that still exist, then environment providers it does not
   * name yet (a variable added since), then browser ones it does not name.
   */
  orderOf(doc: Pick<ProviderSettingsDocument, 'providers' | 'order'>): string[] {
    const all = this.allNames(doc);
    const stored = doc.order.filter((name) => all.includes(name));
    return [...stored, ...all.filter((name) => !stored.includes(name))];
  }

  private allNames(doc: Pick<ProviderSettingsDocument, 'providers'>): string[] {
    return [...this.deps.environmentNames, ...doc.providers.map((p) => p.name)];
  }

  private refuseEnvironment(name: string): void {
    if (this.deps.environmentNames.includes(name))
      throw new ConflictError(
        `'${name}' is set by environment variables: change it there (only its place in the chain changes here)`,
      );
  }

  private sealed(name: string, apiKey: string | undefined): Pick<StoredProvider, 'apiKeySealed' | 'keyHint'> {
    if (!apiKey) return {};
    if (!this.deps.box)
      throw new ConflictError(
        'Keys cannot be saved on this server: set CHAT_SECRETS_KEY (the same on every chat replica) first',
      );
    return { apiKeySealed: this.deps.box.seal(apiKey, keyPurpose(name)), keyHint: apiKey.slice(-4) };
  }

  /**
   * Applies `edit` to the current document and writes the result only if nobody changed it since it was read (tried
   * again a few times), with the change's event in the outbox; then publishes the event.
   */
  private async change(
    context: ChangeContext,
    edit: (doc: ProviderSettingsDocument) => {
      providers: StoredProvider[];
      order: string[];
      event: { change: 'added' | 'updated' | 'removed' | 'reordered'; name?: string; kind?: string } & {
        keyChanged?: boolean;
        fields?: string[];
      };
    },
  ): Promise<void> {
    for (let attempt = 0; attempt < WRITE_RETRIES; attempt++) {
      const doc = await this.read();
      const { providers, order, event } = edit(doc);
      const now = new Date();
      const entry = this.deps.outbox.entry(
        'chat.providers.changed',
        { ...event, order, actor: context.actor, at: now.toISOString() },
        context.requestId ? { requestId: context.requestId } : {},
      );
      const written = await this.model
        .updateOne(
          { _id: DOCUMENT_ID, version: doc.version },
          {
            $set: { providers, order, updatedAt: now, ...this.deps.outbox.set(entry) },
            $inc: { version: 1 },
          },
          { upsert: doc.version === 0 },
        )
        .catch((err: unknown) => {
          // Two first writes at once: the second upsert hits the first's _id; read again.
          if ((err as { code?: number }).code === 11000) return { matchedCount: 0, upsertedCount: 0 };
          throw err;
        });
      if (written.matchedCount + written.upsertedCount === 1) {
        await this.deps.outbox.publish(DOCUMENT_ID, entry);
        return;
      }
    }
    throw new ConflictError('Another operator changed the providers at the same moment; reload and try again');
  }
}
