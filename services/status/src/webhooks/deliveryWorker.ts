import type { Logger } from '@kasa/service-kit';
import { randomUUID } from 'node:crypto';
import type { ReadLimits } from '../queries/queryLimits';
import type { WebhookDeliveryDocument, WebhookDeliveryStore } from './deliveryStore';
import type { EndpointForDelivery, WebhookEndpointStore } from './endpointStore';
import { nextRetryDelay } from './retrySchedule';
import { ATTEMPT_TIMEOUT_MS, sendWebhook, type AttemptResult, type SendOptions } from './webhookSender';
import type { HostLookup } from './webhookTarget';

/** How long a claimed delivery is this worker's: the attempt's time limit and room for the database writes. */
const LEASE_MARGIN_MS = 50_000;
/** How long a stopping worker waits for attempts under way (their leases expire and others retry them anyway). */
const STOP_WAIT_MS = 5_000;

export interface DeliveryWorkerOptions {
  endpoints: WebhookEndpointStore;
  deliveries: WebhookDeliveryStore;
  /** The delays between attempts (WEBHOOKS_RETRY_SCHEDULE), in ms. */
  schedule: readonly number[];
  allowPrivateNetworks: boolean;
  /** Attempts under way at once in this process. */
  concurrency: number;
  /** Time limit of each query. */
  queryTimeoutMs: number;
  logger: Logger;
  attemptTimeoutMs?: number;
  lookup?: HostLookup;
  send?: (message: Parameters<typeof sendWebhook>[0], options: SendOptions) => Promise<AttemptResult>;
  now?: () => Date;
}

/**
 * Sends due webhook deliveries. Each poll claims due deliveries one by one while it has free places (at most
 * `concurrency` attempts at once), each claim an atomic find-and-modify that leases the delivery, so two replicas
 * never make the same attempt; an attempt's outcome is written only by the lease's holder. A 2xx answer delivers it;
 * anything else schedules the next attempt after the schedule's next delay, and once the delays are used up the
 * delivery has failed. A replica that dies mid-attempt leaves the delivery due again when its lease ends.
 * The endpoint is read (and its secret opened) at every attempt: a new secret, URL or switch applies at once.
 */
export class WebhookDeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private polling?: Promise<void>;
  private pollAgain = false;
  private stopped = false;
  private readonly limits: ReadLimits;
  private readonly leaseMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.limits = { maxTimeMS: options.queryTimeoutMs };
    this.leaseMs = (options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS) + LEASE_MARGIN_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** Attempts under way in this process now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * Claims due deliveries while places are free and starts their attempts (it does not wait for them). A poll asked
   * for while one runs runs once more after it, so a delivery made meanwhile is not left for the next tick.
   */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.fill().finally(() => {
      this.polling = undefined;
      if (this.pollAgain) {
        this.pollAgain = false;
        void this.poll().catch((err: unknown) => this.options.logger.warn({ err }, 'webhook poll failed'));
      }
    });
    return this.polling;
  }

  /** Stops claiming, and waits a little for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref()),
    ]);
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.inFlight.size < this.options.concurrency) {
      const leaseId = randomUUID();
      const claimed = await this.options.deliveries.claimDue(leaseId, this.leaseMs, this.limits, this.now());
      if (!claimed) return;
      const attempt: Promise<void> = this.attempt(claimed, leaseId)
        .catch((err: unknown) =>
          this.options.logger.error(
            { err, deliveryId: claimed._id, endpointId: claimed.endpointId },
            'webhook attempt not recorded; it is retried when its lease ends',
          ),
        )
        .finally(() => {
          this.inFlight.delete(attempt);
          // A place is free: take the next due delivery now rather than at the next tick.
          if (!this.stopped) void this.poll().catch(() => undefined);
        });
      this.inFlight.add(attempt);
    }
  }

  private async attempt(delivery: WebhookDeliveryDocument, leaseId: string): Promise<void> {
    const { deliveries, logger } = this.options;
    let endpoint: EndpointForDelivery | null;
    try {
      endpoint = await this.options.endpoints.forDelivery(delivery.endpointId, this.limits);
    } catch (err) {
      // The secret does not open (no STATUS_SECRETS_KEY, or another key than the one that sealed it).
      logger.error({ err, endpointId: delivery.endpointId }, 'webhook signing secret unavailable');
      await this.record(delivery, leaseId, { ok: false, statusCode: null, error: 'signing secret unavailable' });
      return;
    }
    if (!endpoint) {
      // Deleted meanwhile: its deliveries go with it.
      await deliveries.drop(delivery._id, this.limits);
      return;
    }
    if (!endpoint.enabled) {
      await deliveries.settle(
        delivery._id,
        leaseId,
        {
          status: 'failed',
          attempts: delivery.attempts,
          lastStatusCode: delivery.lastStatusCode,
          lastError: 'endpoint disabled',
          nextAttemptAt: null,
          deliveredAt: null,
        },
        this.limits,
      );
      return;
    }
    const send = this.options.send ?? sendWebhook;
    const result = await send(
      { url: endpoint.url, secret: endpoint.secret, eventId: delivery.eventId, body: delivery.body },
      {
        allowPrivateNetworks: this.options.allowPrivateNetworks,
        timeoutMs: this.options.attemptTimeoutMs,
        lookup: this.options.lookup,
        now: this.now,
      },
    );
    await this.record(delivery, leaseId, result);
  }

  private async record(delivery: WebhookDeliveryDocument, leaseId: string, result: AttemptResult): Promise<void> {
    const { logger } = this.options;
    const now = this.now();
    const attempts = delivery.attempts + 1;
    const delay = result.ok ? null : nextRetryDelay(this.options.schedule, attempts);
    const status = result.ok ? 'delivered' : delay === null ? 'failed' : 'pending';
    const kept = await this.options.deliveries.settle(
      delivery._id,
      leaseId,
      {
        status,
        attempts,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
        deliveredAt: result.ok ? now : null,
      },
      this.limits,
    );
    const fields = {
      deliveryId: delivery._id,
      endpointId: delivery.endpointId,
      eventType: delivery.eventType,
      attempts,
      statusCode: result.statusCode,
      error: result.error,
    };
    if (!kept) logger.debug(fields, 'webhook attempt made, but the delivery is gone or taken over');
    else if (status === 'failed') logger.warn(fields, 'webhook delivery failed: every retry used up');
    else if (status === 'pending') logger.info({ ...fields, retryInMs: delay }, 'webhook attempt failed');
    else logger.info(fields, 'webhook delivered');
  }
}
