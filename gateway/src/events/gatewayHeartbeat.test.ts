import { createLogger } from '@kasa/service-kit';
import { startGatewayHeartbeat } from './gatewayHeartbeat';

const logger = createLogger({ service: 'gateway-heartbeat-test', version: 'test', level: 'silent' });

describe('the gateway heartbeat', () => {
  it('beats as soon as the broker connects, long before the first interval, then once per interval', async () => {
    let connected = false;
    const beats: Array<{ service: string; ready: boolean }> = [];
    const stop = startGatewayHeartbeat({
      publisher: {
        isConnected: () => connected,
        publish: async (_type, data) => void beats.push(data),
      },
      intervalMs: 60_000,
      version: 'test',
      checks: async () => ({ broker: connected }),
      isShuttingDown: () => false,
      logger,
    });
    try {
      await new Promise((r) => setTimeout(r, 600));
      expect(beats).toEqual([]);
      connected = true;
      await new Promise((r) => setTimeout(r, 600));
      expect(beats).toEqual([expect.objectContaining({ service: 'gateway', ready: true })]);
    } finally {
      stop();
    }
  });
});
