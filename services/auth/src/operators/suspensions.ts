import type { EventActor } from '@kasa/contracts';
import { ConflictError, NotFoundError, Outbox, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import type { UserDocument } from '../users/userModel';

/** The most suspended accounts the gateways are told about in one snapshot (far beyond any real installation). */
export const SUSPENDED_LIST_MAX = 100_000;
const QUERY_TIME_LIMIT_MS = 5_000;

export interface SuspensionView {
  suspended: boolean;
  suspendedAt: string | null;
  reason: string | null;
  suspendedBy: string | null;
}

/**
 * Suspending and restoring accounts. The change and its event are one write on the account (the kit's outbox), so
 * the event is never lost: every gateway hears `auth.user.suspended` on its broadcast queue and refuses the person's
 * tokens and API keys from then on, as it does for a revoked token; auth itself refuses their sign-ins and keys. The
 * gateways also read `listSuspended` periodically, which covers an event a gateway missed while disconnected.
 */
export class Suspensions {
  readonly suspendedEvents: Outbox;
  readonly restoredEvents: Outbox;

  constructor(
    private readonly deps: {
      users: Model<UserDocument>;
      bus: Pick<EventBus, 'publishWithin'>;
      logger: Logger;
      now?: () => Date;
    },
  ) {
    this.suspendedEvents = new Outbox({
      model: deps.users,
      field: 'suspendedEvent',
      bus: deps.bus,
      logger: deps.logger,
    });
    this.restoredEvents = new Outbox({ model: deps.users, field: 'restoredEvent', bus: deps.bus, logger: deps.logger });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async suspend(userId: string, actor: EventActor, reason: string, requestId?: string): Promise<SuspensionView> {
    if (userId === actor.userId) throw new ConflictError('Operators cannot suspend themselves.');
    await this.assertExists(userId);
    const at = this.now();
    const event = this.suspendedEvents.entry(
      'auth.user.suspended',
      { userId, reason, actor, suspendedAt: at.toISOString() },
      requestId !== undefined ? { requestId } : {},
    );
    const done = await this.deps.users.updateOne(
      { _id: userId, suspendedAt: null },
      {
        $set: {
          suspendedAt: at,
          suspensionReason: reason,
          suspendedBy: actor.userId,
          ...this.suspendedEvents.set(event),
        },
      },
    );
    if (done.matchedCount !== 1) throw new ConflictError('This person is already suspended.');
    // Waits for the broker's confirm at most 2 s (the gateways drop the person on it); the outbox retries otherwise.
    await this.suspendedEvents.publish(userId, event);
    this.deps.logger.info({ userId, by: actor.userId }, 'an account was suspended');
    return { suspended: true, suspendedAt: at.toISOString(), reason, suspendedBy: actor.userId };
  }

  async restore(userId: string, actor: EventActor, reason?: string, requestId?: string): Promise<SuspensionView> {
    await this.assertExists(userId);
    const at = this.now();
    const event = this.restoredEvents.entry(
      'auth.user.restored',
      { userId, actor, restoredAt: at.toISOString(), ...(reason ? { reason } : {}) },
      requestId !== undefined ? { requestId } : {},
    );
    const done = await this.deps.users.updateOne(
      { _id: userId, suspendedAt: { $ne: null } },
      { $set: { suspendedAt: null, suspensionReason: null, suspendedBy: null, ...this.restoredEvents.set(event) } },
    );
    if (done.matchedCount !== 1) throw new ConflictError('This person is not suspended.');
    await this.restoredEvents.publish(userId, event);
    this.deps.logger.info({ userId, by: actor.userId }, 'an account was restored');
    return { suspended: false, suspendedAt: null, reason: null, suspendedBy: null };
  }

  /** The ids of every suspended account (the gateways' periodic snapshot), through the `suspendedAt` index. */
  async listSuspended(): Promise<string[]> {
    const docs = await this.deps.users
      .find({ suspendedAt: { $ne: null } }, { _id: 1 })
      .limit(SUSPENDED_LIST_MAX)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    return docs.map((doc) => doc._id.toString());
  }

  private async assertExists(userId: string): Promise<void> {
    const found = /^[a-f\d]{24}$/i.test(userId)
      ? await this.deps.users.exists({ _id: userId }).maxTimeMS(QUERY_TIME_LIMIT_MS)
      : null;
    if (!found) throw new NotFoundError('No account has this id.');
  }
}

/** The suspension fields of an account as the console shows them. */
export function suspensionOf(
  doc: Pick<UserDocument, 'suspendedAt' | 'suspensionReason' | 'suspendedBy'>,
): SuspensionView {
  return {
    suspended: !!doc.suspendedAt,
    suspendedAt: doc.suspendedAt?.toISOString() ?? null,
    reason: doc.suspensionReason ?? null,
    suspendedBy: doc.suspendedBy ?? null,
  };
}
