import { teamPrincipalId, type EventData } from '@kasa/contracts';
import type { Identity } from '@kasa/service-kit';
import type { ReadLimits } from '../queries/queryLimits';
import { retryOnDuplicate } from '../retryOnDuplicate';
import type { RollupCollection } from '../rollups/collections';

/** Whose each API key is, as auth announced it (collection `api_key_owners`, `_id` = the key's id). */
interface KeyOwner {
  _id: string;
  /** The person who created it. */
  userId: string;
  /** A team key's team; null for a personal key (or while only its revocation has been heard of). */
  teamId: string | null;
  createdAt?: Date;
  revokedAt?: Date;
}

/**
 * Who owns which API key: a projection of auth's `auth.apikey.created` and `auth.apikey.revoked` events in the status
 * service's own database, so that the usage of a key is checked without asking auth — a service calling another with
 * identity headers it made up would be trusted as the gateway is (eShop keeps such a projection, as Basket reacts to
 * OrderStarted). Both handlers are upserts of the key's document, in whatever order the events arrive; a revoked key
 * keeps its owner, since its past calls are still its owner's to see (auth lists revoked keys too).
 */
export class ApiKeyOwners {
  constructor(private readonly keys: RollupCollection) {}

  async recordCreated(data: EventData<'auth.apikey.created'>): Promise<void> {
    await retryOnDuplicate(() =>
      this.keys.updateOne(
        { _id: data.keyId },
        { $set: { userId: data.userId, teamId: data.teamId, createdAt: new Date(data.createdAt) } },
        { upsert: true },
      ),
    );
  }

  /** `at`: when auth published the revocation. */
  async recordRevoked(data: EventData<'auth.apikey.revoked'>, at: string): Promise<void> {
    await retryOnDuplicate(() =>
      this.keys.updateOne(
        { _id: data.keyId },
        // A revocation heard before the creation: the creation's event fills in the team.
        { $set: { revokedAt: new Date(at) }, $setOnInsert: { userId: data.userId, teamId: null } },
        { upsert: true },
      ),
    );
  }

  /**
   * Whether the key is the caller's: a personal key is its creator's; a team key is the team's (calls made with it
   * act as `team:<teamId>`) and its creator's. Other members of the team are not known here (auth announces no
   * memberships), so for them it is not. A key never announced is nobody's.
   */
  async isOwnedBy(who: Identity, keyId: string, limits: ReadLimits): Promise<boolean> {
    const key = (await this.keys.findOne(
      { _id: keyId },
      { maxTimeMS: limits.maxTimeMS, signal: limits.signal },
    )) as KeyOwner | null;
    if (!key) return false;
    if (key.teamId) return who.userId === teamPrincipalId(key.teamId) || who.userId === key.userId;
    return who.userId === key.userId;
  }
}
