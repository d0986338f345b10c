import type { AuthResponse, BillingHistoryResponse, CheckoutResponse } from '@kasa/contracts';
import { eventually } from '@kasa/test-kit';
import { randomUUID } from 'node:crypto';
import { startPlatform, type RunningPlatform } from '../support/platform';

// Receipts and extra-calls packs on the whole platform (built-in provider: test mode): the gateway passes the
// receipts through with the owner's token only, and a pack bought at auth raises the person's monthly quota at the
// gateway at once, through auth.user.calls_added. Small quotas, so that the month can be used up in a few calls.
const PRO_MONTHLY = 3;

let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform({ PLAN_PRO_MONTHLY_CALLS: String(PRO_MONTHLY) });
  // The extra calls reach the gateway over its broadcast queue: wait until it listens.
  await eventually(
    async () => {
      const ready = await fetch(`http://127.0.0.1:${platform.ports.admin}/readyz`).catch(() => undefined);
      const body = (await ready?.json().catch(() => undefined)) as { info?: { revocationFeed?: string } } | undefined;
      return body?.info?.revocationFeed === 'connected';
    },
    { timeoutMs: 15_000 },
  );
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const url = (path: string) => `${platform.baseUrl}${path}`;

async function send(method: string, path: string, token: string | null, body?: unknown) {
  return fetch(url(path), {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A new account on Pro (test mode), with the fresh token the checkout gives. */
async function proPerson(): Promise<{ token: string; userId: string; reference: string }> {
  const id = randomUUID().slice(0, 8);
  const res = await send('POST', '/api/auth/register', null, {
    username: `buyer_${id}`,
    email: `buyer.${id}@example.com`,
    password: 'medaase-42',
  });
  expect(res.status).toBe(201);
  const { token } = (await res.json()) as AuthResponse;
  const checkout = await send('POST', '/api/billing/checkout', token, { planId: 'pro' });
  expect(checkout.status).toBe(201);
  const body = (await checkout.json()) as Extract<CheckoutResponse, { outcome: 'checkout' }>;
  return { token: body.token!, userId: body.user!.id, reference: body.reference };
}

describe('receipts through the gateway', () => {
  it('serves the owner the history, the receipt page and the PDF, and nobody else', async () => {
    const { token, reference } = await proPerson();
    const history = await send('GET', '/api/billing/history', token);
    expect(history.status).toBe(200);
    const page = (await history.json()) as BillingHistoryResponse;
    expect(page.payments.map((p) => p.reference)).toEqual([reference]);

    const html = await send('GET', page.payments[0]!.receiptUrl, token);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toContain(reference);

    const pdf = await send('GET', page.payments[0]!.receiptPdfUrl, token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    const stranger = await proPerson();
    expect((await send('GET', page.payments[0]!.receiptUrl, stranger.token)).status).toBe(404);
    expect((await send('GET', page.payments[0]!.receiptPdfUrl, stranger.token)).status).toBe(404);
    expect((await send('GET', page.payments[0]!.receiptUrl, null)).status).toBe(401);
  });
});

describe('an extra-calls pack', () => {
  it('raises this month’s quota at the gateway at once, for the buyer only', async () => {
    const buyer = await proPerson();
    const other = await proPerson();
    for (let i = 0; i < PRO_MONTHLY; i++) expect((await send('GET', '/api/personas', buyer.token)).status).toBe(200);
    const spent = await send('GET', '/api/personas', buyer.token);
    expect(spent.status).toBe(429);
    expect(spent.headers.get('x-quota-limit')).toBe(String(PRO_MONTHLY));

    const pack = await send('POST', '/api/billing/add-ons/checkout', buyer.token, { addOnId: 'extra-calls' });
    expect(pack.status).toBe(201);
    expect(await pack.json()).toMatchObject({ status: 'completed', payment: { addOnId: 'extra-calls' } });

    const raised = await eventually(
      async () => {
        const res = await send('GET', '/api/personas', buyer.token);
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: 5_000, what: 'the gateway lets the buyer call again' },
    );
    expect(raised.headers.get('x-quota-limit')).toBe(String(PRO_MONTHLY + 10_000));
    expect(raised.headers.get('x-quota-remaining')).toBe(String(10_000 - 1));

    // The other person's month is theirs alone.
    const theirs = await send('GET', '/api/personas', other.token);
    expect(theirs.headers.get('x-quota-limit')).toBe(String(PRO_MONTHLY));
  });

  it('is refused to Free with a 403 naming Pro, through the gateway', async () => {
    const id = randomUUID().slice(0, 8);
    const res = await send('POST', '/api/auth/register', null, {
      username: `free_${id}`,
      email: `free.${id}@example.com`,
      password: 'medaase-42',
    });
    const { token } = (await res.json()) as AuthResponse;
    const refused = await send('POST', '/api/billing/add-ons/checkout', token, { addOnId: 'extra-calls' });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { message: string; details: { plan: string } };
    expect(body.message).toMatch(/Pro plan/);
    expect(body.details.plan).toBe('pro');
  });
});
