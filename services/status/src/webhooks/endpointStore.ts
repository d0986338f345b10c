import type {
  CreateWebhookEndpointRequest,
  SubscriptionTier,
  UpdateWebhookEndpointRequest,
  WebhookEndpoint,
  WebhookEventType,
} from '@kasa/contracts';
import type { SecretBox } from '@kasa/service-kit';
import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import type { ReadLimits } from '../queries/queryLimits';
import { SecretsUnavailableError, WebhookLimitError } from './webhookErrors';

/** One endpoint as stored (collection `webhook_endpoints`). */
export interface WebhookEndpointDocument {
  /** 24 random hex characters. */
  _id: string;
  /** The owner: the identity's user id (`team:<teamId>` for a team key). */
  userId: string;
  /**
   * Which of the owner's places it takes, from 0 to the plan's limit − 1: unique per owner (index), so that two
   * registrations at once can never both take the last place.
   */
  slot: number;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** The signing secret sealed with the kit's SecretBox for `webhook:<id>:signing-secret`; never returned. */
  secretSealed: string;
  createdAt: Date;
  updatedAt: Date;
}

/** An endpoint's address, state and signing secret in clear, for an attempt. */
export interface EndpointForDelivery {
  url: string;
  enabled: boolean;
  secret: string;
}

const COLLECTION = 'webhook_endpoints';
/** More than any plan allows: a list never reads further. */
export const MAX_ENDPOINTS = 100;
const ID_PATTERN = /^[0-9a-f]{24}$/;

export const isEndpointId = (value: string): boolean => ID_PATTERN.test(value);
export const newWebhookId = (): string => randomBytes(12).toString('hex');

/** What a sealed secret is bound to: copied onto another endpoint, it does not open there. */
export const secretPurpose = (endpointId: string): string => `webhook:${endpointId}:signing-secret`;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function webhookEndpointModel(db: Connection): Model<WebhookEndpointDocument> {
  const existing = db.models.WebhookEndpoint as Model<WebhookEndpointDocument> | undefined;
  if (existing) return existing;
  const schema = new Schema<WebhookEndpointDocument>(
    {
      _id: { type: String, required: true },
      userId: { type: String, required: true },
      slot: { type: Number, required: true },
      url: { type: String, required: true },
      description: { type: String, default: '' },
      events: { type: [String], required: true },
      enabled: { type: Boolean, required: true, default: true },
      secretSealed: { type: String, required: true },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
    },
    { collection: COLLECTION, versionKey: false },
  );
  schema.index({ userId: 1, slot: 1 }, { unique: true });
  return db.model<WebhookEndpointDocument>('WebhookEndpoint', schema);
}

export const toWebhookEndpoint = (doc: WebhookEndpointDocument): WebhookEndpoint => ({
  id: doc._id,
  url: doc.url,
  description: doc.description ?? '',
  events: doc.events,
  enabled: doc.enabled,
  createdAt: doc.createdAt.toISOString(),
  updatedAt: doc.updatedAt.toISOString(),
});

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;
const writeLimits = (limits: ReadLimits) => ({ maxTimeMS: limits.maxTimeMS });

/**
 * The developers' webhook endpoints: every read and write is by owner (another person's id is simply not found),
 * and the signing secret is kept sealed (STATUS_SECRETS_KEY, or outside production a key kept under
 * STATUS_KEYS_DIR). In production without the key, nothing that needs a secret can be done (409).
 */
export class WebhookEndpointStore {
  readonly model: Model<WebhookEndpointDocument>;

  constructor(
    db: Connection,
    /** Null when secrets cannot be kept (production without STATUS_SECRETS_KEY). */
    private readonly box: SecretBox | null,
  ) {
    this.model = webhookEndpointModel(db);
  }

  get secretsStorable(): boolean {
    return this.box !== null;
  }

  async list(userId: string, limits: ReadLimits): Promise<WebhookEndpointDocument[]> {
    return this.model
      .find({ userId })
      .sort({ createdAt: 1, _id: 1 })
      .limit(MAX_ENDPOINTS)
      .maxTimeMS(limits.maxTimeMS)
      .lean<WebhookEndpointDocument[]>();
  }

  /** The owner's endpoint, or null (not theirs, or no such id). */
  async get(userId: string, id: string, limits: ReadLimits): Promise<WebhookEndpointDocument | null> {
    if (!isEndpointId(id)) return null;
    return this.model.findOne({ _id: id, userId }).maxTimeMS(limits.maxTimeMS).lean<WebhookEndpointDocument>();
  }

  /**
   * Registers an endpoint within the plan's `limit`: it takes the lowest free place of the owner's (unique per
   * owner), so that of two registrations racing for the last place one gets a duplicate key, reads again and is
   * refused. Answers the endpoint and its secret in clear (the only time it is).
   */
  async create(
    owner: { userId: string; tier: SubscriptionTier },
    input: CreateWebhookEndpointRequest,
    limit: number,
    limits: ReadLimits,
  ): Promise<{ endpoint: WebhookEndpointDocument; secret: string }> {
    const box = this.requireBox();
    for (let attempt = 0; ; attempt += 1) {
      const taken = await this.model
        .find({ userId: owner.userId }, { slot: 1 })
        .limit(MAX_ENDPOINTS)
        .maxTimeMS(limits.maxTimeMS)
        .lean<Array<{ slot: number }>>();
      if (taken.length >= limit) throw new WebhookLimitError(owner.tier, limit);
      const used = new Set(taken.map((doc) => doc.slot));
      let slot = 0;
      while (used.has(slot)) slot += 1;
      const id = newWebhookId();
      const secret = newSigningSecret();
      const now = new Date();
      const doc: WebhookEndpointDocument = {
        _id: id,
        userId: owner.userId,
        slot,
        url: input.url,
        description: input.description ?? '',
        events: input.events,
        enabled: true,
        secretSealed: box.seal(secret, secretPurpose(id)),
        createdAt: now,
        updatedAt: now,
      };
      try {
        await this.model.collection.insertOne(doc as never, writeLimits(limits));
        return { endpoint: doc, secret };
      } catch (err) {
        // Another registration took this place first: look again (a few times at most).
        if (!isDuplicateKey(err) || attempt >= 4) throw err;
      }
    }
  }

  async update(
    userId: string,
    id: string,
    patch: UpdateWebhookEndpointRequest,
    limits: ReadLimits,
  ): Promise<WebhookEndpointDocument | null> {
    if (!isEndpointId(id)) return null;
    const set: Partial<WebhookEndpointDocument> = { updatedAt: new Date() };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.events !== undefined) set.events = patch.events;
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    return this.model
      .findOneAndUpdate({ _id: id, userId }, { $set: set }, { new: true })
      .maxTimeMS(limits.maxTimeMS)
      .lean<WebhookEndpointDocument>();
  }

  /** Deletes the owner's endpoint; false when it is not theirs (or gone). */
  async remove(userId: string, id: string, limits: ReadLimits): Promise<boolean> {
    if (!isEndpointId(id)) return false;
    const result = await this.model.deleteOne({ _id: id, userId }, writeLimits(limits));
    return result.deletedCount === 1;
  }

  /** A new secret for the owner's endpoint, in clear (null when not theirs); the old one no longer opens. */
  async rotateSecret(userId: string, id: string, limits: ReadLimits): Promise<string | null> {
    if (!isEndpointId(id)) return null;
    const box = this.requireBox();
    const secret = newSigningSecret();
    const result = await this.model.updateOne(
      { _id: id, userId },
      { $set: { secretSealed: box.seal(secret, secretPurpose(id)), updatedAt: new Date() } },
      writeLimits(limits),
    );
    return result.matchedCount === 1 ? secret : null;
  }

  /** The owner's enabled endpoints subscribed to `type` (at most MAX_ENDPOINTS). */
  async subscribers(userId: string, type: WebhookEventType, limits: ReadLimits): Promise<string[]> {
    const docs = await this.model
      .find({ userId, enabled: true, events: type }, { _id: 1 })
      .limit(MAX_ENDPOINTS)
      .maxTimeMS(limits.maxTimeMS)
      .lean<Array<{ _id: string }>>();
    return docs.map((doc) => doc._id);
  }

  /** What an attempt needs, with the secret opened now (so a rotation applies to the very next attempt). */
  async forDelivery(id: string, limits: ReadLimits): Promise<EndpointForDelivery | null> {
    const doc = await this.model
      .findById(id, { url: 1, enabled: 1, secretSealed: 1 })
      .maxTimeMS(limits.maxTimeMS)
      .lean<Pick<WebhookEndpointDocument, '_id' | 'url' | 'enabled' | 'secretSealed'>>();
    if (!doc) return null;
    return { url: doc.url, enabled: doc.enabled, secret: this.requireBox().open(doc.secretSealed, secretPurpose(id)) };
  }

  private requireBox(): SecretBox {
    if (!this.box) throw new SecretsUnavailableError();
    return this.box;
  }
}
