import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sendWebhook } from './webhookSender';
import { resolveWebhookTarget, WebhookTargetError, type HostLookup } from './webhookTarget';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering each request with `answer(path)`; what it received. */
async function receiver(answer: (path: string, res: http.ServerResponse) => void) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      answer(req.url ?? '', res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A resolver that knows one made-up name, counting how often it is asked. */
function fakeDns(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup: HostLookup = async (hostname) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { endpointId: 'e1' } });

describe('one webhook attempt', () => {
  it('sends a Standard Webhooks message that verifies, to the address its host resolved to', async () => {
    const hook = await receiver((_path, res) => res.writeHead(204).end());
    // A name no real resolver knows: the request can only reach the receiver through the checked address.
    const dns = fakeDns({ 'hooks.example.test': ['127.0.0.1'] });
    try {
      const result = await sendWebhook(
        { url: `http://hooks.example.test:${hook.port}/kasa?x=1`, secret: SECRET, eventId: 'msg_1', body },
        { allowPrivateNetworks: true, lookup: dns.lookup },
      );
      expect(result).toEqual({ ok: true, statusCode: 204, error: null });
      expect(dns.asked).toEqual(['hooks.example.test']);
      const [got] = hook.received;
      expect(got!.path).toBe('/kasa?x=1');
      expect(got!.headers['content-type']).toBe('application/json');
      expect(got!.headers['webhook-id']).toBe('msg_1');
      expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(got!.body).toBe(body);
      expect(new Webhook(SECRET).verify(got!.body, got!.headers as Record<string, string>)).toEqual(JSON.parse(body));
      // A body changed on the way does not verify.
      expect(() =>
        new Webhook(SECRET).verify(got!.body.replace('e1', 'e2'), got!.headers as Record<string, string>),
      ).toThrow();
    } finally {
      await hook.close();
    }
  });

  it('never connects when any address of the host is internal (unless allowed), nor to localhost or http://', async () => {
    const hook = await receiver((_path, res) => res.writeHead(200).end());
    // A host that answers a public and a private address (a rebinding attempt) is refused outright.
    const dns = fakeDns({ 'rebind.example.test': ['93.184.216.34', '127.0.0.1'] });
    try {
      const send = (url: string) =>
        sendWebhook(
          { url, secret: SECRET, eventId: 'msg_2', body },
          { allowPrivateNetworks: false, lookup: dns.lookup },
        );
      expect(await send(`https://rebind.example.test:${hook.port}/`)).toMatchObject({ error: 'address not allowed' });
      expect(await send(`https://127.0.0.1:${hook.port}/`)).toMatchObject({ error: 'address not allowed' });
      expect(await send(`https://[::ffff:127.0.0.1]:${hook.port}/`)).toMatchObject({ error: 'address not allowed' });
      expect(await send(`https://localhost:${hook.port}/`)).toMatchObject({ error: 'address not allowed' });
      expect(await send(`http://93.184.216.34:${hook.port}/`)).toMatchObject({ error: 'https required' });
      expect(await send('https://unknown.example.test/')).toMatchObject({ error: 'DNS lookup failed' });
      expect(hook.received).toHaveLength(0);
    } finally {
      await hook.close();
    }
  });

  it('does not follow a redirect, nor read the answer', async () => {
    const hook = await receiver((path, res) => {
      if (path === '/moved') res.writeHead(302, { location: '/elsewhere' }).end();
      else res.writeHead(200).end('x'.repeat(100_000));
    });
    try {
      const result = await sendWebhook(
        { url: `http://127.0.0.1:${hook.port}/moved`, secret: SECRET, eventId: 'msg_3', body },
        { allowPrivateNetworks: true },
      );
      expect(result).toEqual({ ok: false, statusCode: 302, error: 'HTTP 302' });
      expect(hook.received.map((r) => r.path)).toEqual(['/moved']);
    } finally {
      await hook.close();
    }
  });

  it('gives up at its time limit and says so', async () => {
    const hook = await receiver(() => undefined); // never answers
    try {
      const result = await sendWebhook(
        { url: `http://127.0.0.1:${hook.port}/slow`, secret: SECRET, eventId: 'msg_4', body },
        { allowPrivateNetworks: true, timeoutMs: 300 },
      );
      expect(result).toEqual({ ok: false, statusCode: null, error: 'timeout' });
    } finally {
      await hook.close();
    }
  });

  it('says why a URL cannot be registered', async () => {
    const dns = fakeDns({
      'internal.example.test': ['10.0.0.5'],
      'public.example.test': ['93.184.216.34'],
      localhost: ['127.0.0.1'],
    });
    const check = (url: string, allowPrivateNetworks = false) =>
      resolveWebhookTarget(url, { allowPrivateNetworks, lookup: dns.lookup });
    await expect(check('https://internal.example.test/')).rejects.toMatchObject({ kind: 'address' });
    await expect(check('https://169.254.169.254/latest/meta-data')).rejects.toBeInstanceOf(WebhookTargetError);
    await expect(check('http://public.example.test/')).rejects.toMatchObject({ kind: 'scheme' });
    await expect(check('https://public.example.test/')).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
    // The operator's choice for a private installation.
    await expect(check('http://internal.example.test/', true)).resolves.toMatchObject({ address: '10.0.0.5' });
    await expect(check('http://localhost:9/', true)).resolves.toBeDefined();
  });
});
