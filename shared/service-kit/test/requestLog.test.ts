/**
 * The request log of every service: one line per request at info, errors at error, and the paths other services poll
 * (quietPaths) at debug while they answer well, so that the log at info shows what people did.
 */
import { Router } from 'express';
import pino from 'pino';
import request from 'supertest';
import { createServiceApp } from '../src/app';
import { ServiceMetrics } from '../src/metrics';

const LEVEL = { debug: 20, info: 30, error: 50 } as const;

function appWithLog() {
  const lines: Array<{ level: number; msg: string; req?: { url: string } }> = [];
  const sink = { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) };
  const logger = pino({ level: 'debug' }, sink);
  const routes = Router();
  routes.get('/api/polled', (req, res) => {
    if (req.query.fail === 'server') res.status(503).json({ message: 'down', code: 'unavailable' });
    else if (req.query.fail === 'client') res.status(404).json({ message: 'nothing here', code: 'not_found' });
    else res.json({ ok: true });
  });
  routes.get('/api/used', (_req, res) => void res.json({ ok: true }));
  const app = createServiceApp({
    logger,
    metrics: new ServiceMetrics('request-log-test'),
    readiness: {},
    quietPaths: ['/api/polled'],
    routes,
  });
  const levelOf = (url: string) =>
    lines.find((l) => /^request (completed|errored)$/.test(l.msg) && l.req?.url === url)?.level;
  return { app, levelOf };
}

describe('the request log', () => {
  it('logs a polled path that answers well at debug, query or not, and every other request at info', async () => {
    const { app, levelOf } = appWithLog();
    await request(app).get('/api/polled').expect(200);
    await request(app).get('/api/polled?fresh=1').expect(200);
    await request(app).get('/api/used').expect(200);
    expect(levelOf('/api/polled')).toBe(LEVEL.debug);
    expect(levelOf('/api/polled?fresh=1')).toBe(LEVEL.debug);
    expect(levelOf('/api/used')).toBe(LEVEL.info);
  });

  it('still logs a polled path at info when it refuses, and at error when it fails', async () => {
    const { app, levelOf } = appWithLog();
    await request(app).get('/api/polled?fail=client').expect(404);
    await request(app).get('/api/polled?fail=server').expect(503);
    expect(levelOf('/api/polled?fail=client')).toBe(LEVEL.info);
    expect(levelOf('/api/polled?fail=server')).toBe(LEVEL.error);
  });
});
