import { Redis } from 'ioredis';
import net from 'node:net';
import { RedisReplySlots } from './replySlots';

/** A port on this machine with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('RedisReplySlots when Redis is away', () => {
  it('refuses to start a reply with a 503 that says why, rather than an unexplained 500', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      const slots = new RedisReplySlots(redis, 10);
      await expect(slots.acquire('user-1')).rejects.toMatchObject({
        status: 503,
        code: 'upstream_unavailable',
        message: expect.stringContaining('try again'),
      });
    } finally {
      redis.disconnect();
    }
  });
});
