import mongoose, { type Connection } from 'mongoose';
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
}): Promise<Connection> {
  const { url, dbName, logger } = options;
  const maxAttempts = options.maxAttempts ?? Infinity;
  let attempt = 0;
  for (;;) {
    attempt += 1;
    const connection = mongoose.createConnection(url, {
      dbName,
      serverSelectionTimeoutMS: 3_000,
      // FerretDB and single-node servers have no replica set to retry writes against.
      retryWrites: false,
      autoIndex: true,
    });
    try {
      await connection.asPromise();
      connection.on('disconnected', () => logger.warn({ dbName }, 'database disconnected'));
      connection.on('reconnected', () => logger.info({ dbName }, 'database reconnected'));
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
