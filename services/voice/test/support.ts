/** Shared helpers of the voice service's integration tests (not a test file itself). */
import type { SubscriptionTier } from '@kasa/contracts';
import { EventBus, ServiceMetrics, connectDatabase, createLogger, isDatabaseReady } from '@kasa/service-kit';
import { identityHeaders, newIdentity } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import type { Stream } from 'node:stream';
import { createApp } from '../src/app';
import { readConfig } from '../src/config';
import { createVoiceComponents, type VoiceComponents } from '../src/voiceComponents';

export const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const logger = createLogger({ service: 'voice-test', version: 'test', level: 'silent' });
export const unique = (): string => randomUUID().slice(0, 8);

/** The identity headers the gateway would forward for a user (voice's features mostly need a paid plan). */
export const userHeaders = (tier: SubscriptionTier = 'pro', userId?: string) =>
  identityHeaders(newIdentity(tier, userId));

/** A database and a bus for one test file; `app(env)` builds the voice app as the service would from `env`. */
export class TestEnvironment {
  db!: Connection;
  bus!: EventBus;
  private readonly components: VoiceComponents[] = [];

  constructor(private readonly name: string) {}

  async start(): Promise<void> {
    this.db = await connectDatabase({
      url: process.env.MONGO_URL!,
      dbName: `kasa_voice_${this.name}_${process.pid}`,
      logger,
      maxAttempts: 3,
    });
    this.bus = new EventBus({ url: AMQP_URL, source: 'kasa/voice', logger });
    await this.bus.start();
  }

  async stop(): Promise<void> {
    for (const components of this.components) components.close();
    await this.bus?.close();
    await this.db?.dropDatabase();
    await this.db?.close();
  }

  async app(env: Record<string, string> = {}): Promise<{ app: Express; voice: VoiceComponents }> {
    const config = readConfig(env);
    const voice = await createVoiceComponents({ settings: config, db: this.db, bus: this.bus, logger });
    this.components.push(voice);
    const app = createApp({
      ...voice,
      logger,
      metrics: new ServiceMetrics('voice-test'),
      readiness: { database: () => isDatabaseReady(this.db), broker: () => this.bus.isConnected() },
      isShuttingDown: () => false,
    });
    return { app, voice };
  }
}

/** Collects a supertest response body as bytes, whatever its content type (superagent hands parsers the response stream). */
export function binaryParser(res: Stream, callback: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
  res.on('error', (err: Error) => callback(err, Buffer.alloc(0)));
}
