/**
 * The request id and W3C trace context travel from an HTTP request through everything it logs and every event it
 * publishes, over the real RabbitMQ, into the handler of the subscriber and what that handler logs.
 */
import { eventually, unique } from '@kasa/test-kit';
import { Router } from 'express';
import pino from 'pino';
import request from 'supertest';
import { createServiceApp } from '../src/app';
import { EventBus } from '../src/bus';
import { traceMixin } from '../src/logger';
import { createSpanRecorder } from '../src/telemetry';
import { ServiceMetrics } from '../src/metrics';
import {
  currentTraceContext,
  formatTraceparent,
  parseTraceparent,
  propagationHeaders,
  runWithTraceContext,
  startSpan,
} from '../src/traceContext';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const INCOMING = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context', () => {
  it('parses a valid traceparent and refuses malformed or all-zero ones', () => {
    expect(parseTraceparent(INCOMING)).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentSpanId: '00f067aa0ba902b7',
      sampled: true,
    });
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')?.sampled).toBe(false);
    for (const bad of [
      undefined,
      '',
      'garbage',
      '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01',
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`,
    ])
      expect(parseTraceparent(bad)).toBeUndefined();
  });

  it('starts a child span under a received trace, or a new trace without one', () => {
    const child = startSpan({ requestId: 'req-1', traceparent: INCOMING });
    expect(child).toMatchObject({ requestId: 'req-1', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
    expect(child.parentSpanId).toBe('00f067aa0ba902b7');
    expect(child.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.spanId).not.toBe('00f067aa0ba902b7');
    const root = startSpan();
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.parentSpanId).toBeUndefined();
    expect(formatTraceparent(root)).toBe(`00-${root.traceId}-${root.spanId}-01`);
  });

  it('gives every new trace and span its own well-formed id, across many refills of the random pool', () => {
    const spans = Array.from({ length: 2_000 }, () => startSpan());
    const traceIds = new Set(spans.map((s) => s.traceId));
    const spanIds = new Set(spans.map((s) => s.spanId));
    expect(traceIds.size).toBe(spans.length);
    expect(spanIds.size).toBe(spans.length);
    for (const s of spans) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(s.traceId.startsWith(s.spanId)).toBe(false);
    }
  });

  it('gives outgoing calls the request id and this span as their parent, and nothing outside a request', () => {
    expect(propagationHeaders()).toEqual({});
    const context = startSpan({ requestId: 'req-2', traceparent: INCOMING });
    runWithTraceContext(context, () => {
      expect(propagationHeaders()).toEqual({
        'x-request-id': 'req-2',
        traceparent: `00-4bf92f3577b34da6a3ce929d0e0e4736-${context.spanId}-01`,
      });
    });
  });

  it('writes the request id and trace id on every line logged while a request is handled, and into its events', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const logger = pino({ level: 'info', mixin: traceMixin }, sink);
    const source = `kasa/trace-test-${unique()}`;
    const publisher = new EventBus({ url: AMQP_URL, source, logger });
    const subscriber = new EventBus({ url: AMQP_URL, source: `${source}-sub`, logger });
    const received: Array<{ traceId?: string; requestId?: string; eventRequestId?: string }> = [];
    subscriber.subscribeBroadcast('chat.session.created', async (event) => {
      if (event.data.sessionId !== sessionId) return;
      const context = currentTraceContext();
      logger.info('handled the event');
      received.push({ traceId: context?.traceId, requestId: context?.requestId, eventRequestId: event.requestId });
    });
    const sessionId = `s-${unique()}`;
    await Promise.all([publisher.start(), subscriber.start()]);
    try {
      const routes = Router().post('/work', async (_req, res) => {
        logger.info('doing the work');
        await publisher.publish('chat.session.created', {
          sessionId,
          userId: 'u-1',
          personaId: 'kasa',
          title: 'Trace',
          createdAt: new Date().toISOString(),
        });
        res.json({ traceparent: propagationHeaders().traceparent });
      });
      const app = createServiceApp({ logger, metrics: new ServiceMetrics('trace_test'), readiness: {}, routes });
      const res = await request(app)
        .post('/work')
        .set('x-request-id', 'req-trace-1')
        .set('traceparent', INCOMING)
        .send({});
      expect(res.status).toBe(200);
      expect(parseTraceparent(res.body.traceparent)?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');

      const work = lines.find((l) => l.msg === 'doing the work');
      expect(work).toMatchObject({ requestId: 'req-trace-1', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
      const handled = await eventually(() => received[0], { timeoutMs: 10_000, what: 'the event is handled' });
      expect(handled).toEqual({
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        requestId: 'req-trace-1',
        eventRequestId: 'req-trace-1',
      });
      expect(lines.find((l) => l.msg === 'handled the event')).toMatchObject({
        requestId: 'req-trace-1',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      });
    } finally {
      await Promise.all([publisher.close(), subscriber.close()]);
    }
  });

  it('records nothing and costs nothing when no collector is configured', () => {
    expect(createSpanRecorder({ service: 'x', version: '0' })).toBeUndefined();
  });
});
