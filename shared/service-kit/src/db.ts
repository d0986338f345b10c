import mongoose, { type ConnectOptions, type Connection, type Model, type Query, type Schema } from 'mongoose';
import type { Logger } from './logger';

/**
 * Opens the service's own database (one per service: kasa_auth, kasa_chat, ...) and keeps retrying with backoff
 * until it answers, so a service started before its database waits instead of crashing.
 */
export async function connectDatabase(options: {
  url: string;
  dbName: string;
  logger: Logger;
  maxAttempts?: number;
  signal?: AbortSignal;
  /** The time limit of every read (maxTimeMS) that does not set its own; default DEFAULT_QUERY_TIME_LIMIT_MS. */
  queryTimeLimitMs?: number;
}): Promise<Connection> {
  const { url, dbName, logger } = options;
  const maxAttempts = options.maxAttempts ?? Infinity;
  let attempt = 0;
  for (;;) {
    attempt += 1;
    const connectionOptions: ConnectOptions = {
      dbName,
      serverSelectionTimeoutMS: 3_000,
      // How soon a database that came back is seen (the driver's default is 10 s, longer on a loaded machine when a
      // check times out): one small `hello` every 2 s per service.
      heartbeatFrequencyMS: 2_000,
      // How long opening a connection (TCP and the handshake) may take; it also bounds each heartbeat. The driver's
      // default, 30 s, lets one heartbeat that hangs (a connection accepted but never answered) keep a service away
      // from a database that is back for half a minute.
      connectTimeoutMS: 10_000,
      // FerretDB and single-node servers have no replica set to retry writes against.
      retryWrites: false,
      // The driver opens connections up to maxPoolSize (100) at the busiest moment and, by default, keeps them for
      // good: each costs the database a connection of its own (buffers, a goroutine on the embedded one). One idle
      // for a minute is closed, so the pool follows the load instead of its peak.
      maxIdleTimeMS: 60_000,
      autoIndex: true,
    };
    const connection = mongoose.createConnection(url, connectionOptions);
    connection.plugin(queryTimeLimit(options.queryTimeLimitMs ?? DEFAULT_QUERY_TIME_LIMIT_MS));
    try {
      await connection.asPromise();
      connection.on('disconnected', () => logger.warn({ dbName }, 'database disconnected'));
      connection.on('reconnected', () => logger.info({ dbName }, 'database reconnected'));
      logHeartbeatTransitions(connection, dbName, logger);
      reopenWhenStuck(connection, url, connectionOptions, dbName, logger);
      logger.info({ dbName }, 'database connected');
      return connection;
    } catch (err) {
      await connection.close().catch(() => undefined);
      if (attempt >= maxAttempts || options.signal?.aborted) throw err;
      const delay = Math.min(500 * 2 ** (attempt - 1), 10_000);
      logger.warn(
        { dbName, attempt, retryInMs: delay, err: (err as Error).message },
        'database not reachable, retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * How long a connection may stay disconnected before it is opened again. The driver finds a database that came back
 * within a heartbeat or two (seconds); twice in CI runs on a loaded 2-core machine (7 December) one service's
 * connection stayed disconnected for over a minute while the database answered every other service, with no failed
 * heartbeat logged: the service answered 503 until it was restarted.
 */
export const STUCK_CONNECTION_MS = 20_000;
const STUCK_CHECK_EVERY_MS = 5_000;
/** How long the probe of a stuck connection (a fresh client's ping) may take. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Decides when a connection that stays disconnected is to be opened again (kept apart from the timer and the driver
 * so that it can be tested alone). `connected()` and `disconnected()` follow the connection's events; `isStuck()` says
 * whether it has been disconnected, without a moment connected, for the whole period.
 */
export class StuckConnectionWatch {
  private disconnectedSince: number | undefined;

  constructor(private readonly stuckAfterMs = STUCK_CONNECTION_MS) {}

  connected(): void {
    this.disconnectedSince = undefined;
  }

  disconnected(now: number): void {
    this.disconnectedSince ??= now;
  }

  isStuck(now: number): boolean {
    return this.disconnectedSince !== undefined && now - this.disconnectedSince >= this.stuckAfterMs;
  }

  /** After an attempt to open it again: the next one comes a whole period later if it stays disconnected. */
  retried(now: number): void {
    if (this.disconnectedSince !== undefined) this.disconnectedSince = now;
  }
}

/** Whether the database answers a ping on a connection of its own (not the service's, which may be the stuck one). */
async function databaseAnswers(url: string, options: ConnectOptions): Promise<boolean> {
  const probe = mongoose.createConnection(url, {
    ...options,
    serverSelectionTimeoutMS: PROBE_TIMEOUT_MS,
    connectTimeoutMS: PROBE_TIMEOUT_MS,
    maxPoolSize: 1,
    autoIndex: false,
  });
  try {
    await probe.asPromise();
    await probe.db?.admin().ping();
    return true;
  } catch {
    return false;
  } finally {
    await probe.close(true).catch(() => undefined);
  }
}

/**
 * Opens the connection again (close, then openUri with the same settings) when it has stayed disconnected for
 * STUCK_CONNECTION_MS while the database answers a fresh connection: the case where the driver does not find a
 * database that is there. While the database is away nothing is done (the driver finds it when it is back). The
 * models stay bound to the same Connection object, so they work again once it is open. Stops for good when the service
 * closes the connection itself (shutdown).
 */
function reopenWhenStuck(
  connection: Connection,
  url: string,
  options: ConnectOptions,
  dbName: string,
  logger: Logger,
): void {
  const watch = new StuckConnectionWatch();
  let reopening = false;
  connection.on('connected', () => watch.connected());
  connection.on('reconnected', () => watch.connected());
  connection.on('disconnected', () => watch.disconnected(Date.now()));
  const timer = setInterval(() => {
    // Connecting counts as away too: a connection that keeps connecting for the whole period is as stuck.
    if (connection.readyState === 1) watch.connected();
    else watch.disconnected(Date.now());
    if (reopening || !watch.isStuck(Date.now())) return;
    reopening = true;
    void (async () => {
      try {
        if (!(await databaseAnswers(url, options)) || connection.readyState === 1) return;
        logger.warn(
          { dbName, afterMs: STUCK_CONNECTION_MS },
          'database connection did not come back by itself while the database answers; opening it again',
        );
        await connection.close(true);
        await connection.openUri(url, options);
        // A new driver client: its heartbeats are logged as the first one's were.
        logHeartbeatTransitions(connection, dbName, logger);
        watch.connected();
        logger.info({ dbName }, 'database connection opened again');
      } catch (err) {
        logger.warn(
          { dbName, err: (err as Error).message },
          'opening the database connection again failed; trying later',
        );
      } finally {
        watch.retried(Date.now());
        reopening = false;
      }
    })();
  }, STUCK_CHECK_EVERY_MS);
  timer.unref();
  connection.on('close', () => {
    if (!reopening) clearInterval(timer);
  });
}

/**
 * Logs when the driver's heartbeats start failing and when they answer again (one line each way, not one per
 * heartbeat), so that a service which stays away from its database after an outage shows whether its driver is still
 * checking, and what it last heard.
 */
function logHeartbeatTransitions(connection: Connection, dbName: string, logger: Logger): void {
  let failures = 0;
  let failingSince = 0;
  connection.getClient().on('serverHeartbeatFailed', (event) => {
    failures += 1;
    if (failures > 1) return;
    failingSince = Date.now();
    logger.warn(
      // The duration is -1 when no connection could be opened at all.
      {
        dbName,
        ...(event.duration >= 0 ? { heartbeatMs: Math.round(event.duration) } : {}),
        err: event.failure.message,
      },
      'database heartbeat failed',
    );
  });
  connection.getClient().on('serverHeartbeatSucceeded', () => {
    if (failures === 0) return;
    logger.warn(
      { dbName, failedHeartbeats: failures, failingForMs: Date.now() - failingSince },
      'database heartbeat answers again',
    );
    failures = 0;
  });
}

/** The time limit of a read that sets none: no query may hold the database longer than a request waits for it. */
export const DEFAULT_QUERY_TIME_LIMIT_MS = 5_000;

/** The reads (and find-and-modify commands) that take a maxTimeMS. */
const TIME_LIMITED_QUERIES =
  /^(find|findOne|countDocuments|distinct|findOneAndUpdate|findOneAndDelete|findOneAndReplace)$/;

/**
 * A mongoose plugin that gives every query and aggregation of a schema a `maxTimeMS` unless it sets its own, so that
 * the database abandons work nobody waits for any more (a query that runs over answers 503, see errorHandler).
 * `connectDatabase` applies it to every model of the connection.
 */
export function queryTimeLimit(ms: number) {
  return (schema: Schema) => {
    schema.pre(TIME_LIMITED_QUERIES, function (this: Query<unknown, unknown>) {
      if (this.getOptions().maxTimeMS === undefined) this.maxTimeMS(ms);
    });
    schema.pre('aggregate', function () {
      if (this.options.maxTimeMS === undefined) this.option({ maxTimeMS: ms });
    });
  };
}

/** A query or aggregation stopped by the server at its time limit (maxTimeMS): MaxTimeMSExpired, code 50. */
export function isQueryTimeLimitError(err: unknown): boolean {
  const { code, codeName } = (err ?? {}) as { code?: unknown; codeName?: unknown };
  return code === 50 || codeName === 'MaxTimeMSExpired';
}

/** True when the connection is open and the server answers a ping. */
export async function isDatabaseReady(connection: Connection): Promise<boolean> {
  if (connection.readyState !== 1 || !connection.db) return false;
  try {
    await connection.db.admin().ping();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a database error is worth one more try: a write that lost a lock race (SQLite's "database is locked"
 * under the embedded server, MongoDB's WriteConflict) or a connection that dropped. Validation errors, duplicate
 * keys and the like are not: retrying them gives the same answer.
 */
export function isTransientDatabaseError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { name, message, code, errorLabels } = err as {
    name?: string;
    message?: string;
    code?: number;
    errorLabels?: unknown;
  };
  if (name === 'MongoNetworkError' || name === 'MongoNetworkTimeoutError' || isDriverSocketError(err)) return true;
  if (code === 112 /* WriteConflict */ || code === 189 /* PrimarySteppedDown */) return true;
  const labels = errorLabels instanceof Set ? [...errorLabels] : Array.isArray(errorLabels) ? errorLabels : [];
  if (labels.includes('TransientTransactionError') || labels.includes('RetryableWriteError')) return true;
  return typeof message === 'string' && /SQLITE_BUSY|database is locked/.test(message);
}

/** Socket errors of a connection the other side closed or reset. */
const SOCKET_ERROR_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED']);

/**
 * A socket error the driver passed on as it came, not wrapped in a MongoNetworkError: a command written to a
 * connection the server (or a proxy in front of it) has just closed fails with Node's own "This socket has been ended
 * by the other party" (EPIPE), thrown from the driver's write path. Told apart from the same codes of other clients
 * (an HTTP call to a provider) by the driver's frames in its stack.
 */
function isDriverSocketError(err: object): boolean {
  const { code, stack } = err as { code?: unknown; stack?: unknown };
  return (
    typeof code === 'string' &&
    SOCKET_ERROR_CODES.has(code) &&
    typeof stack === 'string' &&
    /[/\\]mongodb[/\\]lib[/\\]/.test(stack)
  );
}

/** Driver errors that mean the database did not answer at all (down, unreachable, connection dropped). */
const UNREACHABLE_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoServerClosedError',
  'MongoTopologyClosedError',
  'MongoWaitQueueTimeoutError',
]);

/** Server error codes that mean the server is going away or cannot reach its peers (the driver retries these). */
const SERVER_UNAVAILABLE_CODES = new Set([
  6 /* HostUnreachable */, 7 /* HostNotFound */, 89 /* NetworkTimeout */, 91 /* ShutdownInProgress */,
  9001 /* SocketException */, 11600 /* InterruptedAtShutdown */,
]);

/**
 * Whether an error means the database could not be reached rather than that the request was wrong: the driver found
 * no server in time, the connection dropped, or mongoose gave up waiting for a connection. The error handler answers
 * these with 503, which tells the client to try again shortly.
 */
export function isDatabaseUnavailableError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    const { name, message, code, errorLabels } = e as {
      name?: string;
      message?: string;
      code?: unknown;
      errorLabels?: unknown;
    };
    if (typeof name === 'string' && UNREACHABLE_ERRORS.has(name)) return true;
    // Any network error of the driver, whatever its class is named in this driver version.
    if (e instanceof mongoose.mongo.MongoNetworkError || e instanceof mongoose.mongo.MongoServerSelectionError) {
      return true;
    }
    if (typeof code === 'number' && SERVER_UNAVAILABLE_CODES.has(code)) return true;
    if (isDriverSocketError(e)) return true;
    const labels = errorLabels instanceof Set ? [...errorLabels] : Array.isArray(errorLabels) ? errorLabels : [];
    if (labels.includes('ResetPool') || labels.includes('PoolRequstedRetry')) return true;
    if (name === 'MongooseError' && typeof message === 'string' && /buffering timed out/.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs a database operation, retrying transient failures (see isTransientDatabaseError) with jittered exponential
 * backoff: 4 tries over about 1.5 s. For writes whose loss would lose a person's data, such as a finished reply.
 * The operation must be safe to repeat (an update by id, an insert with a fixed _id).
 */
export async function withTransientRetry<T>(
  operation: () => Promise<T>,
  options: { logger?: Logger; what: string; attempts?: number },
): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (err) {
      if (attempt >= attempts || !isTransientDatabaseError(err)) throw err;
      const delay = 100 * 2 ** (attempt - 1) * (0.5 + Math.random());
      options.logger?.warn({ attempt, retryInMs: Math.round(delay), what: options.what }, 'database busy, retrying');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * Creates a model's collection and indexes (mongoose's `Model.init()`), so that a failure can be retried. Mongoose
 * keeps the promise of the first `init()` — which it starts by itself when the model is compiled — and hands the same
 * one to every later call, a rejected one too: a connection that was away for a moment while the models were compiled
 * (a loaded machine) would fail every retry of whenDatabaseAnswers with the first error, and the service would never
 * become ready. On failure the kept promise is dropped, so the next call tries again.
 */
export async function initModels(...models: Array<Model<any>>): Promise<void> {
  await Promise.all(
    models.map(async (model) => {
      try {
        await model.init();
      } catch (err) {
        const kept = model as unknown as { $init?: unknown; $caught?: unknown };
        delete kept.$init;
        delete kept.$caught;
        throw err;
      }
    }),
  );
}

/**
 * Runs a step of a service's start (creating indexes, seeding) until the database answers it: a database that is
 * away for a moment (restarting, or the machine so busy that a connection drops) delays the start instead of failing
 * it. Retries database-unavailable errors only, with backoff up to 5 s, for at most `withinMs` (default 2 minutes);
 * then the error is thrown and the service exits, for its supervisor to start it again.
 */
export async function whenDatabaseAnswers<T>(
  step: () => Promise<T>,
  options: { logger: Logger; what: string; withinMs?: number },
): Promise<T> {
  const deadline = Date.now() + (options.withinMs ?? 120_000);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (err) {
      const retryable = isDatabaseUnavailableError(err) || isTransientDatabaseError(err);
      if (!retryable || Date.now() >= deadline) throw err;
      const delay = Math.min(250 * 2 ** (attempt - 1), 5_000);
      options.logger.warn(
        { attempt, retryInMs: delay, what: options.what, err: (err as Error).message },
        'database not answering during start, retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
