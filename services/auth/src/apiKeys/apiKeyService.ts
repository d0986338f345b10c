import {
  API_KEY_PATTERN,
  API_KEY_SCOPES,
  ErrorCode,
  MAX_ACTIVE_API_KEYS,
  ObjectIdString,
  type ApiKey,
  type ApiKeyRejection,
  type CreateApiKeyRequest,
  type CreateApiKeyResponse,
  type EventActor,
  type EventData,
  type VerifiedApiKey,
  teamPrincipalId,
} from '@kasa/contracts';
import {
  ConflictError,
  HttpError,
  NotAllowedError,
  NotFoundError,
  PUBLISH_WAIT_MS,
  type EventBus,
  type Logger,
} from '@kasa/service-kit';
import type { FilterQuery, Model } from 'mongoose';
import type { TeamService } from '../teams/teamService';
import type { UserService } from '../users/userService';
import { toPublicApiKey, type ApiKeyDocument } from './apiKeyModel';
import { generateApiKey, hashApiKey, visibleParts } from './apiKeySecrets';
import type { ApiKeyUsageRecorder } from './apiKeyUsage';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The list shows the most recent keys, revoked ones included, up to this many. */
const LIST_LIMIT = 100;

const REJECTIONS: Record<ApiKeyRejection, string> = {
  unknown: 'This API key is not valid.',
  revoked: 'This API key has been revoked.',
  expired: 'This API key has expired.',
  suspended: 'The account this API key belongs to is suspended.',
};

function rejected(reason: ApiKeyRejection, userId?: string): HttpError {
  // The owner of a key refused as suspended goes to the gateway, which forgets the refusal when they are restored.
  return new HttpError(401, ErrorCode.unauthenticated, REJECTIONS[reason], { reason, ...(userId ? { userId } : {}) });
}

/** Whom a verified key acts as. */
type KeyPrincipal = Pick<VerifiedApiKey, 'userId' | 'username' | 'tier' | 'planHolderId'>;

export interface ApiKeyServiceDeps {
  keys: Model<ApiKeyDocument>;
  users: Pick<UserService, 'findById' | 'keyOwner'>;
  /** Filled in after construction when the team service needs this one too (it revokes a deleted team's keys). */
  teams?: Pick<TeamService, 'membershipOf' | 'teamIdentity'>;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** Where verifications note a key's use; written in the background, never awaited by a verification. */
  usage: Pick<ApiKeyUsageRecorder, 'record'>;
  now?: () => Date;
}

/** Creates, lists, revokes and verifies the API keys of Kasa's developers. */
export class ApiKeyService {
  private readonly now: () => Date;

  constructor(private readonly deps: ApiKeyServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Connects the team service, which is built after this one because it revokes a deleted team's keys here. */
  attachTeams(teams: Pick<TeamService, 'membershipOf' | 'teamIdentity'>): void {
    this.deps.teams = teams;
  }

  /**
   * Creates a key and announces auth.apikey.created once stored (whose it is, never the key), so that services
   * keep their own record of key owners instead of asking auth with the caller's identity.
   */
  async create(
    userId: string,
    input: CreateApiKeyRequest,
    requestId?: string,
    clientIp?: string,
  ): Promise<CreateApiKeyResponse> {
    const now = this.now();
    const teamId = input.team ? await this.teamKeyOwner(userId) : null;
    await this.assertRoomFor(userId, now);
    const secret = generateApiKey();
    const doc = (
      await this.deps.keys.create({
        userId,
        teamId,
        name: input.name,
        ...visibleParts(secret),
        hash: hashApiKey(secret),
        scopes: input.scopes ?? [...API_KEY_SCOPES],
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null,
      })
    ).toObject();
    // Two creations racing past the check above could both insert; recount and undo this one if over the limit.
    if ((await this.countActive(userId, now)) > MAX_ACTIVE_API_KEYS) {
      await this.deps.keys.deleteOne({ _id: doc._id });
      throw this.tooMany();
    }
    await this.announce(
      'auth.apikey.created',
      {
        userId: doc.userId,
        keyId: doc._id.toString(),
        teamId: doc.teamId ?? null,
        prefix: doc.prefix,
        createdAt: doc.createdAt.toISOString(),
        actor: actorData(userId, clientIp),
      },
      requestId,
    );
    return {
      secret,
      key: toPublicApiKey(doc),
      message: 'Copy this key now: Kasa keeps only a hash of it and cannot show it again.',
    };
  }

  /** The caller's personal keys and, for a team member, the team's keys. */
  async list(userId: string): Promise<ApiKey[]> {
    const membership = await this.deps.teams?.membershipOf(userId);
    const filter: FilterQuery<ApiKeyDocument> = membership
      ? { $or: [{ userId, teamId: null }, { teamId: membership.teamId }] }
      : { userId, teamId: null };
    const docs = await this.deps.keys.find(filter).sort({ createdAt: -1, _id: -1 }).limit(LIST_LIMIT).lean();
    return docs.map(toPublicApiKey);
  }

  /**
   * Revokes one of the caller's keys (idempotent) and announces it with auth.apikey.revoked once stored, so every
   * gateway drops the key from its cache. Another person's key, or an id that is not one, is a 404.
   */
  async revoke(userId: string, keyId: string, requestId?: string, clientIp?: string): Promise<void> {
    if (!ObjectIdString.safeParse(keyId).success) throw new NotFoundError('API key not found');
    const owned = await this.revocableBy(userId, keyId);
    const doc = await this.deps.keys
      .findOneAndUpdate({ ...owned, revokedAt: null }, { $set: { revokedAt: this.now() } }, { new: true })
      .lean();
    if (!doc) {
      if (await this.deps.keys.exists(owned)) return; // revoked before
      throw new NotFoundError('API key not found');
    }
    await this.announceRevocation(doc, requestId, actorData(userId, clientIp));
  }

  /** Revokes every key of a team (the team is being deleted) and tells the gateways about each. */
  async revokeTeamKeys(teamId: string, requestId?: string): Promise<void> {
    const active = await this.deps.keys.find({ teamId, revokedAt: null }).limit(1000).lean();
    const now = this.now();
    await this.deps.keys.updateMany({ teamId, revokedAt: null }, { $set: { revokedAt: now } });
    await Promise.all(active.map((doc) => this.announceRevocation(doc, requestId)));
  }

  /**
   * The identity a presented key acts for, or a 401 whose `details.reason` says why. A personal key acts as its owner
   * with their current username and tier (so an upgrade applies to existing keys). A team key acts as the team
   * itself (`team:<teamId>`, the team's name and plan): whoever created it, it reaches only the team's own data, and
   * its plan is the team's, not its creator's. The use is noted for the key's "last used" time and written after the
   * answer (see ApiKeyUsageRecorder): the gateway is waiting for this answer, the time can wait.
   */
  async verify(key: string): Promise<VerifiedApiKey> {
    if (!API_KEY_PATTERN.test(key)) throw rejected('unknown');
    const doc = await this.deps.keys.findOne({ hash: hashApiKey(key) }).lean();
    if (!doc) throw rejected('unknown');
    if (doc.revokedAt) throw rejected('revoked');
    const now = this.now();
    if (doc.expiresAt && doc.expiresAt <= now) throw rejected('expired');
    const principal = doc.teamId ? await this.teamPrincipal(doc.teamId) : await this.personalPrincipal(doc.userId);
    this.deps.usage.record(doc, now);
    return {
      ...principal,
      keyId: doc._id.toString(),
      scopes: doc.scopes,
      expiresAt: doc.expiresAt?.toISOString() ?? null,
      teamId: doc.teamId ?? null,
    };
  }

  private async personalPrincipal(userId: string): Promise<KeyPrincipal> {
    const owner = await this.deps.users.keyOwner(userId).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw rejected('unknown');
      throw err;
    });
    // A suspended person's keys are refused until an operator restores the account.
    if (owner.suspended) throw rejected('suspended', userId);
    return { userId, username: owner.username, tier: owner.tier, planHolderId: userId };
  }

  /** The team as a service identity; a key of a team that is gone is revoked. */
  private async teamPrincipal(teamId: string): Promise<KeyPrincipal> {
    const team = await this.deps.teams?.teamIdentity(teamId);
    if (!team) throw rejected('revoked');
    return { userId: teamPrincipalId(teamId), username: team.name, tier: team.tier, planHolderId: team.ownerId };
  }

  /** The team a new team key belongs to: the caller must be its owner or an admin. */
  private async teamKeyOwner(userId: string): Promise<string> {
    const membership = await this.deps.teams?.membershipOf(userId);
    if (!membership) throw new NotAllowedError('You are not in a team, so you cannot create a team key.');
    if (membership.role === 'member') {
      throw new NotAllowedError("Only the team's owner and admins can create team keys.");
    }
    return membership.teamId;
  }

  /**
   * The filter of a key the caller may revoke: their personal key, or a key of their team when they are its owner
   * or an admin. A plain member sees the team's keys but gets a 403; anyone else's key is a 404.
   */
  private async revocableBy(userId: string, keyId: string): Promise<FilterQuery<ApiKeyDocument>> {
    const key = await this.deps.keys.findById(keyId, { userId: 1, teamId: 1 }).lean();
    if (key?.teamId) {
      const membership = await this.deps.teams?.membershipOf(userId);
      if (membership?.teamId !== key.teamId) throw new NotFoundError('API key not found');
      if (membership.role === 'member') {
        throw new NotAllowedError("Only the team's owner and admins can revoke team keys.");
      }
      return { _id: keyId, teamId: key.teamId };
    }
    return { _id: keyId, userId, teamId: null };
  }

  private countActive(userId: string, now: Date): Promise<number> {
    return this.deps.keys.countDocuments({
      userId,
      revokedAt: null,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    });
  }

  private async assertRoomFor(userId: string, now: Date): Promise<void> {
    if ((await this.countActive(userId, now)) >= MAX_ACTIVE_API_KEYS) throw this.tooMany();
  }

  private tooMany(): ConflictError {
    return new ConflictError(
      `You already have ${MAX_ACTIVE_API_KEYS} active API keys, the most allowed. Revoke one before creating another.`,
      { limit: MAX_ACTIVE_API_KEYS },
    );
  }

  private announceRevocation(doc: ApiKeyDocument, requestId?: string, actor?: EventActor): Promise<void> {
    // Without the broker the answer does not hang: gateways forget cached keys after at most API_KEY_CACHE_TTL_MS.
    const data = { userId: doc.userId, keyId: doc._id.toString(), prefix: doc.prefix, ...(actor ? { actor } : {}) };
    return this.announce('auth.apikey.revoked', data, requestId);
  }

  /**
   * Publishes a key's event once the key is stored, waiting a little for the broker's confirm but never holding the
   * answer longer (the bus goes on sending while the broker is away). An event lost all the same (auth stopped before
   * the broker came back) is logged; for auth.apikey.created, status then answers 404 for the usage of that key until
   * it has calls. The service kit's outbox, once it exists, closes that gap.
   */
  private async announce<T extends 'auth.apikey.created' | 'auth.apikey.revoked'>(
    type: T,
    data: EventData<T>,
    requestId?: string,
  ): Promise<void> {
    await this.deps.bus.publishWithin(type, data, PUBLISH_WAIT_MS, {
      requestId,
      onSettled: (confirmed) => confirmed || this.deps.logger.warn({ keyId: data.keyId }, `${type} not published`),
    });
  }
}

/** Who created or revoked a key, and from where, for the audit log. */
function actorData(userId: string, clientIp?: string): EventActor {
  return { userId, ...(clientIp ? { clientIp } : {}) };
}
