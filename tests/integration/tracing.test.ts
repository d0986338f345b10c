/**
 * One trace from the browser to the last event handler: the gateway continues the client's W3C traceparent, the
 * service continues the gateway's span, and the event the service publishes is handled under the same trace. Each
 * process exports its spans to an OTLP/HTTP collector (a local fake at the edge of the world) when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import { eventually, newAccount } from '@kasa/test-kit';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPlatform, type RunningPlatform } from '../support/platform';

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

interface OtlpBody {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<ExportedSpan, 'service'>> }>;
  }>;
}

const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

let platform: RunningPlatform;
let collector: http.Server;
const spans: ExportedSpan[] = [];

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) {
        for (const resource of (JSON.parse(body) as OtlpBody).resourceSpans ?? []) {
          const service = resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? []) spans.push({ ...span, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  platform = await startPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  collector?.close();
});

describe('tracing across the platform', () => {
  it('follows one new chat from the client through the gateway and chat to the status service’s event handler', async () => {
    const registered = await fetch(`${platform.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(newAccount('trace')),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const res = await fetch(`${platform.baseUrl}/api/chat/sessions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
      },
      body: JSON.stringify({ personaId: 'kasa', title: 'Akwaaba' }),
    });
    expect(res.status).toBe(201);

    const inTrace = () => spans.filter((s) => s.traceId === CLIENT_TRACE);
    const gateway = await eventually(() => inTrace().find((s) => s.service === 'kasa-gateway'), {
      timeoutMs: 20_000,
      what: 'the gateway exports its span of the request',
    });
    // The gateway's span is the child of the client's; chat's span is the child of the gateway's.
    expect(gateway).toMatchObject({ parentSpanId: CLIENT_SPAN, kind: 2 });
    const chat = await eventually(() => inTrace().find((s) => s.service === 'kasa-chat' && s.kind === 2), {
      timeoutMs: 20_000,
      what: 'chat exports its span of the request',
    });
    expect(chat).toMatchObject({ parentSpanId: gateway.spanId, name: 'POST /api/chat/sessions' });
    // chat.session.created is handled by the status service under the same trace, as a child of chat's span.
    const handled = await eventually(
      () => inTrace().find((s) => s.service === 'kasa-status' && s.name === 'chat.session.created process'),
      { timeoutMs: 30_000, what: 'the status service exports the span of handling chat.session.created' },
    );
    expect(handled).toMatchObject({ parentSpanId: chat.spanId, kind: 5 });
  }, 90_000);
});
