import { Kasa, KasaError } from '@kasa/sdk';
import { randomUUID } from 'node:crypto';
import { FakeOpenAI, fakeProviderEnv } from '../../../tests/support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../../../tests/support/platform';

/**
 * A spent monthly quota against the built platform. It has a platform of its own with a small quota for Free
 * accounts (the cases in platform.test.ts make more calls than that per account).
 */
const FREE_MONTHLY = 4;

let platform: RunningPlatform;
let provider: FakeOpenAI;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform({
    ...fakeProviderEnv(provider),
    PLAN_FREE_MONTHLY_CALLS: String(FREE_MONTHLY),
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});

it('throws quota_exceeded at once, without a retry, once the monthly quota is spent', async () => {
  const requests: string[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return fetch(input, init);
  };
  // A client that would retry three times, with waits it is willing to make.
  const kasa = new Kasa({ baseUrl: platform.baseUrl, fetch: countingFetch, maxRetries: 3 });
  const id = randomUUID().slice(0, 8);
  await kasa.auth.register({ username: `quota_${id}`, email: `quota.${id}@example.com`, password: 'adinkra-sika' });

  let spent: unknown;
  for (let call = 0; call <= FREE_MONTHLY && spent === undefined; call++) {
    spent = await kasa.chat.sessions.list().then(
      () => undefined,
      (err: unknown) => err,
    );
  }
  expect(spent).toBeInstanceOf(KasaError);
  expect(spent).toMatchObject({ status: 429, code: 'quota_exceeded', message: expect.stringMatching(/quota/i) });

  // A read and a creating call (sent with an Idempotency-Key, so safe to repeat): one request each.
  for (const call of [
    () => kasa.chat.sessions.list(),
    () => kasa.chat.sessions.create({ personaId: 'kasa', title: 't' }),
  ]) {
    const before = requests.length;
    await expect(call()).rejects.toMatchObject({ status: 429, code: 'quota_exceeded' });
    expect(requests.length - before).toBe(1);
  }
});
