import { connectDatabase, createLogger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deleteQueues } from './platform';

/**
 * The platform settings of one SDK suite's run: its own auth database (so that the plan control below changes only
 * its accounts) and its own video work queue (voice services of other runs on the broker never take its jobs).
 */
export function isolatedRunSettings(suite: string): { AUTH_DB_NAME: string; VOICE_VIDEO_QUEUE: string } {
  const run = randomUUID().slice(0, 8);
  return { AUTH_DB_NAME: `kasa_auth_${suite}_${run}`, VOICE_VIDEO_QUEUE: `kasa.voice.video.${suite}-${run}` };
}

export interface PlanControl {
  /** PUT {url}/plan {email, plan}: sets an account's plan (a new sign-in then carries it). */
  url: string;
  /** Stops the control, drops the run's auth database and deletes its video queues. */
  stop(): Promise<void>;
}

/**
 * A control for an SDK's own tests (KASA_PLAN_CONTROL_URL): moves an account to a plan that is sold by the sales team,
 * not the checkout (Enterprise), by setting it in the run's auth database.
 */
export async function startPlanControl(settings: ReturnType<typeof isolatedRunSettings>): Promise<PlanControl> {
  const authDb: Connection = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: settings.AUTH_DB_NAME,
    logger: createLogger({ service: 'sdk-plan-control', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'PUT' || req.url !== '/plan') return send(404, { message: `No ${req.method} ${req.url}` });
      const { email, plan } = JSON.parse(raw) as { email: string; plan: string };
      authDb
        .collection('users')
        .updateOne({ email }, { $set: { subscriptionTier: plan } })
        .then((result) => send(result.matchedCount === 1 ? 200 : 404, { matched: result.matchedCount }))
        .catch((error: Error) => send(500, { message: error.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise<void>((done) => server.close(() => done()));
      await authDb.dropDatabase().catch(() => undefined);
      await authDb.close();
      const queue = settings.VOICE_VIDEO_QUEUE;
      await deleteQueues(process.env.AMQP_URL, [queue, `${queue}.dlq`]);
    },
  };
}
