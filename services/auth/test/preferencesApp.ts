import { ServiceMetrics, connectDatabase, createLogger, createServiceApp } from '@kasa/service-kit';
import { identityHeaders, newIdentity } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection, Model } from 'mongoose';
import { createPreferencesRouter } from '../src/preferences/preferencesRouter';

/** The headers the gateway sets after verifying a person's token. */
export const as = (userId: string) => identityHeaders(newIdentity('free', userId));

/**
 * The preferences routes alone over a database of their own, for one test file: registers its jest hooks (connect,
 * create the given model's indexes, drop the database after) and returns getters for the app and the connection.
 */
export function usePreferencesApp(
  name: string,
  model: (db: Connection) => Pick<Model<unknown>, 'init'>,
): { app: () => Express; db: () => Connection } {
  const logger = createLogger({ service: `auth-${name}-test`, version: 'test', level: 'silent' });
  let db: Connection;
  let app: Express;

  beforeAll(async () => {
    db = await connectDatabase({
      url: process.env.MONGO_URL!,
      dbName: `kasa_auth_${name.replace(/\W/g, '_')}_test_${process.pid}`,
      logger,
      maxAttempts: 3,
    });
    await model(db).init();
    app = createServiceApp({
      logger,
      metrics: new ServiceMetrics(`auth-${name}-test`),
      readiness: {},
      bodyLimit: '16kb',
      routes: [createPreferencesRouter(db)],
    });
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await db?.close();
  });

  return { app: () => app, db: () => db };
}
