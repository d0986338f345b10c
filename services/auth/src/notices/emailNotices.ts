import type { AccountNotice, EventData, PlanId } from '@kasa/contracts';
import { Outbox, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { NOTICE_EVENT_FIELD, type EmailNoticeDocument } from './emailNoticeModel';

const DUPLICATE_KEY = 11000;
const DAY_MS = 24 * 3600_000;

/**
 * How long a published notice is kept: the record that a notice with a deterministic id was sent, longer than any
 * grace period (at most 60 days) plus the processors' redeliveries.
 */
export const PUBLISHED_NOTICES_KEPT_MS = 90 * DAY_MS;

/** What a notice is about: the account (its owner receives it) and what happened. */
export interface NoticeRequest {
  userId: string;
  email: string;
  notice: AccountNotice;
  occurredAt: Date;
  retryAfter?: Date;
  /** renewal_failed, plan_lapsed: the subscription's plan and the end of its grace. */
  planId?: PlanId;
  graceUntil?: Date;
  /**
   * The event id of a notice that must go once per transition (a failed renewal, a lapse): a second request with the
   * same id stores and sends nothing. A random id when absent.
   */
  eventId?: string;
}

/** Where the owner acts on each notice, under the public address. */
const ACTION_PATHS: Record<AccountNotice, string> = {
  sign_in_throttled: '/auth',
  registration_attempted: '/auth',
  renewal_failed: '/settings',
  plan_lapsed: '/pricing',
};

/** The page a notice points to: Settings (billing) for a failed renewal, the plans after a lapse, else sign-in. */
export function actionUrlOf(notice: AccountNotice, publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${ACTION_PATHS[notice]}`;
}

/**
 * E-mails to an account's owner, announced as `auth.email.requested` for the mailer (src/mail). Each notice is one
 * document of `email_notices` carrying its event (the kit's Outbox, field `requestedEvent`): written first, then
 * published; `events` is republished by the runtime until the broker confirms, so a notice survives a broker that
 * is away and a restart, and is sent again with the same event id (the mailer skips an id it has handled).
 */
export class EmailNotices {
  /** The outbox of the notices' events; index.ts has the runtime republish it. */
  readonly events: Outbox;

  constructor(
    private readonly deps: {
      notices: Model<EmailNoticeDocument>;
      bus: Pick<EventBus, 'publishWithin'>;
      logger: Logger;
      /** Where people reach Kasa: the notices' links start there. */
      publicUrl: string;
      now?: () => Date;
      /** How long a publish waits for the broker's confirm (the kit's default, 2 s, unless given). */
      publishWaitMs?: number;
    },
  ) {
    this.events = new Outbox({
      model: deps.notices,
      field: NOTICE_EVENT_FIELD,
      bus: deps.bus,
      logger: deps.logger.child({ outbox: NOTICE_EVENT_FIELD }),
      ...(deps.publishWaitMs !== undefined ? { publishWaitMs: deps.publishWaitMs } : {}),
    });
  }

  /**
   * Stores the notice with its event and publishes it (waiting for the confirm at most the outbox's wait). Answers
   * false, sending nothing, when a notice with the same `eventId` was already stored.
   */
  async send(request: NoticeRequest, requestId?: string): Promise<boolean> {
    const id = request.eventId ?? randomUUID();
    const data: EventData<'auth.email.requested'> = {
      userId: request.userId,
      to: request.email,
      notice: request.notice,
      occurredAt: request.occurredAt.toISOString(),
      ...(request.retryAfter ? { retryAfter: request.retryAfter.toISOString() } : {}),
      ...(request.planId ? { planId: request.planId } : {}),
      ...(request.graceUntil ? { graceUntil: request.graceUntil.toISOString() } : {}),
      actionUrl: actionUrlOf(request.notice, this.deps.publicUrl),
    };
    const entry = this.events.entry('auth.email.requested', data, {
      id,
      ...(requestId !== undefined ? { requestId } : {}),
    });
    try {
      await this.deps.notices.create({
        _id: id,
        userId: request.userId,
        notice: request.notice,
        createdAt: this.now(),
        ...this.events.set(entry),
      });
    } catch (err) {
      if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      this.deps.logger.debug({ eventId: id, notice: request.notice }, 'account notice already stored; not sent again');
      return false;
    }
    await this.events.publish(id, entry);
    return true;
  }

  /**
   * Notices stored by earlier versions (the event's data in `data`, no outbox entry) and never confirmed: each gets
   * its entry with the same event id, for the republisher. Run once at start; answers how many.
   */
  async adoptEarlierNotices(): Promise<number> {
    const earlier = (await this.deps.notices.collection
      .find({ [NOTICE_EVENT_FIELD]: { $exists: false }, data: { $exists: true } })
      .limit(1_000)
      .toArray()) as unknown as Array<{ _id: string; data: EventData<'auth.email.requested'>; requestId?: string }>;
    let adopted = 0;
    for (const doc of earlier) {
      try {
        const entry = this.events.entry('auth.email.requested', doc.data, {
          id: doc._id,
          ...(doc.requestId ? { requestId: doc.requestId } : {}),
        });
        await this.deps.notices.collection.updateOne(
          { _id: doc._id as never, [NOTICE_EVENT_FIELD]: { $exists: false } },
          {
            $set: { userId: doc.data.userId, notice: doc.data.notice, ...this.events.set(entry) },
            $unset: { data: '', requestId: '' },
          },
        );
        adopted += 1;
      } catch (err) {
        this.deps.logger.warn({ err, eventId: doc._id }, 'an earlier account notice could not be adopted');
      }
    }
    return adopted;
  }

  /** Forgets published notices older than PUBLISHED_NOTICES_KEPT_MS; answers how many. */
  async prunePublished(): Promise<number> {
    const result = await this.deps.notices.deleteMany({
      [`${NOTICE_EVENT_FIELD}.state`]: 'Published',
      createdAt: { $lt: new Date(this.now().getTime() - PUBLISHED_NOTICES_KEPT_MS) },
    });
    return result.deletedCount;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
