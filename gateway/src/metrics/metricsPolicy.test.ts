import { createLogger, ServiceMetrics } from '@kasa/service-kit';
import { EventEmitter } from 'node:events';
import type { GatewayRequest, GatewayResponse } from '../eg/types';
import type { CompletedRequest } from '../events/requestEventBuffer';
import { createMetricsPolicy } from './metricsPolicy';

const logger = createLogger({ service: 'gateway', version: 'test', level: 'silent' });

function exchange(route: string, request: Partial<GatewayRequest> = {}) {
  const req = { method: 'GET', originalUrl: '/x', egContext: { apiEndpoint: { apiEndpointName: route } }, ...request };
  const res = Object.assign(new EventEmitter(), { headersSent: true, statusCode: 201 });
  return { req: req as GatewayRequest, res: res as unknown as GatewayResponse & EventEmitter };
}

describe('the metrics policy', () => {
  const completed: CompletedRequest[] = [];
  const middleware = createMetricsPolicy(new ServiceMetrics('gateway'), logger, (r) => completed.push(r)).policy(
    {},
    { gatewayConfig: {} },
  );

  beforeEach(() => completed.splice(0));

  it('hands each answered API request on with the caller of its token or API key', () => {
    const withToken = exchange('chat', { kasaIdentity: { sub: 'u-1' } as GatewayRequest['kasaIdentity'] });
    const withKey = exchange('voice', {
      method: 'POST',
      kasaApiKey: { userId: 'u-2', keyId: 'k-2' } as GatewayRequest['kasaApiKey'],
    });
    for (const { req, res } of [withToken, withKey]) {
      middleware(req, res, () => undefined);
      res.emit('close');
    }
    expect(
      completed.map(({ route, method, status, userId, apiKeyId }) => [route, method, status, userId, apiKeyId]),
    ).toEqual([
      ['chat', 'GET', 201, 'u-1', undefined],
      ['voice', 'POST', 201, 'u-2', 'k-2'],
    ]);
    expect(completed.every((r) => r.durationMs >= 0 && r.atMs > 0)).toBe(true);
  });

  it('records a client that left before the answer as 499, and leaves out the web app’s files', () => {
    const gone = exchange('chat');
    (gone.res as unknown as { headersSent: boolean }).headersSent = false;
    const page = exchange('web');
    for (const { req, res } of [gone, page]) {
      middleware(req, res, () => undefined);
      res.emit('close');
    }
    expect(completed.map((r) => [r.route, r.status])).toEqual([['chat', 499]]);
  });
});
