import type { EventData } from '@kasa/contracts';
import type { Logger } from '@kasa/service-kit';
import { randomUUID } from 'node:crypto';

/** How often the gateway checks for the broker until its first heartbeat is out. */
const FIRST_BEAT_POLL_MS = 250;

/** What the heartbeat needs of the event bus. */
export interface HeartbeatPublisher {
  isConnected(): boolean;
  publish(type: 'service.heartbeat', data: EventData<'service.heartbeat'>): Promise<unknown>;
}

/**
 * Publishes the gateway's `service.heartbeat` every `intervalMs`, like every service does (ServiceRuntime), so that
 * the status page lists the gateway too. Skipped while the broker is away (a heartbeat that waits is worthless).
 * Returns a function that stops it.
 */
export function startGatewayHeartbeat(options: {
  publisher: HeartbeatPublisher;
  intervalMs: number;
  version: string;
  deployment?: string;
  checks: () => Promise<Record<string, boolean>>;
  isShuttingDown: () => boolean;
  logger: Logger;
}): () => void {
  const instanceId = randomUUID();
  let beaten = false;
  const beat = async () => {
    if (!options.publisher.isConnected()) return;
    beaten = true;
    const checks = await options.checks();
    await options.publisher.publish('service.heartbeat', {
      service: 'gateway',
      ...(options.deployment ? { deployment: options.deployment } : {}),
      instanceId,
      version: options.version,
      ready: Object.values(checks).every(Boolean) && !options.isShuttingDown(),
      checks,
      at: new Date().toISOString(),
    });
  };
  const timer = setInterval(() => {
    beat().catch((err: unknown) =>
      options.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'heartbeat not published'),
    );
  }, options.intervalMs);
  timer.unref();
  // The first heartbeat goes out as soon as the broker is connected, not one interval after start: until the status
  // service hears from the gateway, it reports it down.
  const firstBeat = setInterval(() => {
    if (beaten) return void clearInterval(firstBeat);
    beat().catch(() => undefined);
  }, FIRST_BEAT_POLL_MS);
  firstBeat.unref();
  return () => {
    clearInterval(timer);
    clearInterval(firstBeat);
  };
}
