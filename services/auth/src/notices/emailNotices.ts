import type { AccountNotice, EventData } from '@kasa/contracts';
import { PUBLISH_WAIT_MS, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { EmailNoticeDocument } from './emailNoticeModel';

/** What a notice is about: the account (its owner receives it) and what happened. */
export interface NoticeRequest {
  userId: string;
  email: string;
  notice: AccountNotice;
  occurredAt: Date;
  retryAfter?: Date;
}

/**
 * E-mails to an account's owner, announced as `auth.email.requested` for a mailer. Each notice is written to the
 * `email_notices` outbox first, then published; the broker's confirm deletes it, and `republishPending` re-sends what
 * stays (same event id), so a notice survives a broker that is away and a restart.
 */
export class EmailNotices {
  constructor(
    private readonly deps: {
      outbox: Model<EmailNoticeDocument>;
      bus: Pick<EventBus, 'publishWithin'>;
      logger: Logger;
      now?: () => Date;
    },
  ) {}

  /** Stores the notice and publishes it; waits for the confirm at most PUBLISH_WAIT_MS. */
  async send(request: NoticeRequest, requestId?: string): Promise<void> {
    const data: EventData<'auth.email.requested'> = {
      userId: request.userId,
      to: request.email,
      notice: request.notice,
      occurredAt: request.occurredAt.toISOString(),
      ...(request.retryAfter ? { retryAfter: request.retryAfter.toISOString() } : {}),
    };
    const doc = (
      await this.deps.outbox.create({ _id: randomUUID(), data, requestId: requestId ?? null, createdAt: this.now() })
    ).toObject();
    await this.publish(doc);
  }

  /** Re-sends notices whose publish was never confirmed (older than `olderThanMs`), with their event ids. */
  async republishPending(olderThanMs = 10_000): Promise<number> {
    const stale = await this.deps.outbox
      .find({ createdAt: { $lt: new Date(this.now().getTime() - olderThanMs) } })
      .sort({ createdAt: 1 })
      .limit(100)
      .lean();
    for (const doc of stale) await this.publish(doc);
    return stale.length;
  }

  private async publish(doc: EmailNoticeDocument): Promise<void> {
    // The answer does not wait for a broker that is slow or away; the outbox keeps the notice until it is confirmed.
    await this.deps.bus.publishWithin('auth.email.requested', doc.data, PUBLISH_WAIT_MS, {
      id: doc._id,
      requestId: doc.requestId ?? undefined,
      onSettled: (confirmed) =>
        confirmed
          ? this.deps.outbox.deleteOne({ _id: doc._id })
          : this.deps.logger.warn({ eventId: doc._id }, 'auth.email.requested not yet published; will retry'),
    });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
