import type { EventData } from '@kasa/contracts';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { EventBus, createMongoProcessedEventStore, type PrunableProcessedEventStore } from './bus';
import { connectDatabase, isDatabaseReady } from './db';
import { runChecks, type ReadinessCheck } from './health';
import { createLogger, type Logger } from './logger';
import { Outbox, type OutboxOptions } from './outbox';
import { ServiceMetrics } from './metrics';
import { startServer, type RunningServer } from './server';
import { ConfigError } from './config';
import { createSpanRecorder, type SpanRecorder } from './telemetry';

export interface RuntimeConfig {
  LOG_LEVEL: string;
  MONGO_URL: string;
  AMQP_URL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  /** Default 10 000 ms. */
  HEARTBEAT_INTERVAL_MS?: number;
  /** Sent in heartbeats when set (see ServiceHeartbeatEvent.deployment). */
  KASA_DEPLOYMENT?: string;
  /** Spans are exported over OTLP/HTTP when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

/** A part a service depends on and reports in its heartbeat (e.g. an AI provider); see ServiceHeartbeatEvent. */
export type HeartbeatComponent = NonNullable<EventData<'service.heartbeat'>['components']>[number];

/** What every service's createApp takes from the runtime. */
export interface RuntimeAppDeps {
  logger: Logger;
  metrics: ServiceMetrics;
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown: () => boolean;
  /** Present when spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT). */
  spans?: SpanRecorder;
}

const DEFAULT_HEARTBEAT_INTERVAL_MS = 10_000;
const DEFAULT_OUTBOX_INTERVAL_MS = 30_000;

/**
 * The connections one service process holds (its database, the broker), and its lifecycle: readiness tied to them,
 * a `service.heartbeat` every HEARTBEAT_INTERVAL_MS (10 s), and a graceful stop that drains HTTP before closing the bus and the database.
 */
export class ServiceRuntime {
  readonly instanceId = randomUUID();
  private shuttingDown = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly shutdownTasks: Array<{ name: string; close: () => Promise<unknown> }> = [];
  private readonly shutdownStartTasks: Array<{ name: string; close: () => Promise<unknown> }> = [];
  private reportComponents?: () => HeartbeatComponent[];
  readonly appDeps: RuntimeAppDeps;

  private constructor(
    readonly service: string,
    readonly version: string,
    readonly config: RuntimeConfig,
    readonly logger: Logger,
    readonly metrics: ServiceMetrics,
    readonly db: Connection,
    readonly bus: EventBus,
    /**
     * The handled event ids of this service (collection `processed_events` in its own database), which its EventBus
     * skips; also for a service's other inboxes (e.g. processor webhooks). Pruned by the service (no TTL index).
     */
    readonly processedEvents: PrunableProcessedEventStore,
    readonly spans: SpanRecorder | undefined,
  ) {
    this.appDeps = {
      logger,
      metrics,
      readiness: { database: () => isDatabaseReady(db), broker: () => bus.isConnected() },
      isShuttingDown: () => this.shuttingDown,
      ...(spans ? { spans } : {}),
    };
  }

  /**
   * Connects to the service's own database (retrying until it answers) and prepares the bus. Subscriptions are
   * declared by the caller on `runtime.bus` before `listen`, which starts the bus.
   */
  static async create(options: {
    service: string;
    version: string;
    config: RuntimeConfig;
    dbName: string;
    /** Durable queue kasa.<consumerName>; omit for a service that only publishes. */
    consumerName?: string;
  }): Promise<ServiceRuntime> {
    const logger = createLogger({
      service: options.service,
      version: options.version,
      level: options.config.LOG_LEVEL,
    });
    const db = await connectDatabase({ url: options.config.MONGO_URL, dbName: options.dbName, logger });
    const spans = createSpanRecorder({
      service: options.service,
      version: options.version,
      endpoint: options.config.OTEL_EXPORTER_OTLP_ENDPOINT,
    });
    const processedEvents = createMongoProcessedEventStore(db);
    const bus = new EventBus({
      url: options.config.AMQP_URL,
      source: `kasa/${options.service}`,
      logger,
      consumerName: options.consumerName,
      processedEvents: options.consumerName ? processedEvents : undefined,
      spans,
    });
    return new ServiceRuntime(
      options.service,
      options.version,
      options.config,
      logger,
      new ServiceMetrics(options.service),
      db,
      bus,
      processedEvents,
      spans,
    );
  }

  /**
   * Runs `close` on shutdown, after HTTP has drained and before the bus and the database close (e.g. the last batch
   * of writes kept off the request path); with `{ immediately: true }`, as soon as shutdown starts instead (e.g. stop
   * taking queued jobs, so another instance gets them). The runtime owns the signals: no service adds its own handlers.
   */
  onShutdown(name: string, close: () => Promise<unknown>, options: { immediately?: boolean } = {}): void {
    (options.immediately ? this.shutdownStartTasks : this.shutdownTasks).push({ name, close });
  }

  /** Runs `task` every `ms` until shutdown; errors are logged, never thrown. */
  every(ms: number, name: string, task: () => Promise<unknown>): void {
    const timer = setInterval(() => {
      task().catch((err: unknown) => this.logger.warn({ err, task: name }, 'periodic task failed'));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * An Outbox over `options.model`/`options.field` publishing through this runtime's bus, republished every
   * `intervalMs` (default 30 s) until shutdown (see Outbox).
   */
  outbox(options: Omit<OutboxOptions, 'bus' | 'logger'> & { intervalMs?: number }): Outbox {
    const { intervalMs = DEFAULT_OUTBOX_INTERVAL_MS, ...rest } = options;
    const outbox = new Outbox({ ...rest, bus: this.bus, logger: this.logger.child({ outbox: options.field }) });
    this.republish(outbox, intervalMs);
    return outbox;
  }

  /** Runs `outbox.republish()` every `intervalMs` (default 30 s) while the bus is connected, until shutdown. */
  republish(outbox: Outbox, intervalMs = DEFAULT_OUTBOX_INTERVAL_MS): void {
    this.every(intervalMs, `republish the ${outbox.field} outbox`, async () => {
      if (!this.bus.isConnected()) return; // nothing would be confirmed; the entries wait for the broker
      const report = await outbox.republish();
      if (report.attempted > 0 || report.failed > 0)
        this.logger.info({ outbox: outbox.field, ...report }, 'outbox entries republished');
    });
  }

  async listen(app: Express, options: { port: number; host: string }): Promise<RunningServer> {
    // The broker may be down when we start: serve anyway (readiness says not ready) and connect in the background.
    this.bus
      .start()
      .catch((err: unknown) => this.logger.error({ err }, 'event bus did not connect; retrying in the background'));
    this.every(this.config.HEARTBEAT_INTERVAL_MS ?? DEFAULT_HEARTBEAT_INTERVAL_MS, 'heartbeat', () => this.heartbeat());
    return startServer({
      app,
      port: options.port,
      host: options.host,
      logger: this.logger,
      shutdownTimeoutMs: this.config.SHUTDOWN_TIMEOUT_MS,
      onShutdownStart: () => {
        this.shuttingDown = true;
        this.timers.forEach(clearInterval);
        for (const task of this.shutdownStartTasks) {
          task.close().catch((err: unknown) => this.logger.warn({ err, task: task.name }, 'shutdown task failed'));
        }
      },
      closers: [
        // The service's own last writes (batched bookkeeping) go first, while the database is still open.
        ...this.shutdownTasks,
        { name: 'event bus', close: () => this.bus.close() },
        { name: 'database', close: () => this.db.close() },
        ...(this.spans ? [{ name: 'telemetry', close: () => this.spans!.shutdown() }] : []),
      ],
    });
  }

  /** Adds the parts `report` returns to every heartbeat; they inform the status page and never affect readiness. */
  reportInHeartbeat(report: () => HeartbeatComponent[]): void {
    this.reportComponents = report;
  }

  private async heartbeat(): Promise<void> {
    if (!this.bus.isConnected()) return;
    const checks = await runChecks(this.appDeps.readiness);
    await this.bus.publish('service.heartbeat', {
      service: this.service,
      ...(this.config.KASA_DEPLOYMENT ? { deployment: this.config.KASA_DEPLOYMENT } : {}),
      instanceId: this.instanceId,
      version: this.version,
      ready: Object.values(checks).every(Boolean) && !this.shuttingDown,
      checks,
      at: new Date().toISOString(),
      ...(this.reportComponents ? { components: this.reportComponents().slice(0, 50) } : {}),
    });
  }
}

/** Runs a service's main function; a configuration problem prints its list of problems (no stack) and exits 1. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
