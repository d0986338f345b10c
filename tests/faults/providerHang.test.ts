import { eventually } from '@kasa/test-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { call, pick, register, type Answer } from './support/faults';

/**
 * The only configured AI provider accepts requests and never answers. The chain must give up on it after the
 * configured first-token timeout, answer from the offline fallback, open the provider's circuit so that later
 * questions skip it at once, and try it again once the circuit's reset time has passed.
 */
const FIRST_TOKEN_TIMEOUT_MS = 1_500;
const IDLE_TIMEOUT_MS = 2_000;
const BREAKER_MIN_REQUESTS = 3;
const BREAKER_RESET_MS = 4_000;
/** Questions asked at once while the provider hangs (more under `npm run test:faults`). */
const CONCURRENT = pick(BREAKER_MIN_REQUESTS, 12);
/** Slack over the timeout for a busy two-core machine: the answer must never wait for the hung call itself. */
const SLACK_MS = 8_000;

let platform: RunningPlatform;
let provider: FakeOpenAI;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform({
    CHAT_PROVIDERS: 'openai',
    OPENAI_API_KEY: 'sk-fault-suite',
    OPENAI_BASE_URL: provider.baseURL,
    CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: String(FIRST_TOKEN_TIMEOUT_MS),
    CHAT_PROVIDER_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
    CHAT_BREAKER_MIN_REQUESTS: String(BREAKER_MIN_REQUESTS),
    CHAT_BREAKER_ERROR_PERCENT: '50',
    CHAT_BREAKER_RESET_MS: String(BREAKER_RESET_MS),
    CHAT_OFFLINE_WORD_DELAY_MS: '1',
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});

describe('an AI provider that hangs', () => {
  it('times out within the configured timeout, answers from the fallback, and opens the circuit', async () => {
    const person = await register(platform.baseUrl, 'hang');
    const session = await call(platform.baseUrl, 'POST', '/api/chat/sessions', {
      token: person.token,
      body: { personaId: 'kasa', title: 'hang drill' },
    });
    expect(session.status).toBe(201);
    const ask = (content: string): Promise<Answer> =>
      call(platform.baseUrl, 'POST', `/api/chat/sessions/${session.body.id}/messages`, {
        token: person.token,
        body: { role: 'user', content, type: 'text' },
        timeoutMs: FIRST_TOKEN_TIMEOUT_MS + SLACK_MS + 10_000,
      });
    const circuit = async () => {
      const answer = await call(platform.baseUrl, 'GET', '/api/chat/providers', { token: person.token });
      return (answer.body.providers as { name: string; circuit: string }[]).find((p) => p.name === 'openai')?.circuit;
    };
    expect(await circuit()).toBe('closed');

    provider.mode = { kind: 'hang' };
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => ask(`What is Kasa? (${i})`)));
    for (const answer of answers) {
      expect({ status: answer.status, provider: answer.body.provider, state: answer.body.status }).toEqual({
        status: 201,
        provider: 'offline',
        state: 'complete',
      });
      expect(answer.ms).toBeGreaterThanOrEqual(FIRST_TOKEN_TIMEOUT_MS);
      expect(answer.ms).toBeLessThan(FIRST_TOKEN_TIMEOUT_MS + SLACK_MS);
    }
    // Every hung call was asked once and then abandoned: its connection closed, nothing left waiting.
    expect(provider.requests).toHaveLength(CONCURRENT);
    await eventually(() => provider.requests.every((r) => r.closedAt !== undefined), {
      timeoutMs: 5_000,
      intervalMs: 200,
      what: 'the hung calls closed',
    });

    // The circuit is open: the next questions skip the provider without asking it, and do not wait for a timeout.
    expect(await circuit()).toBe('open');
    for (let i = 0; i < 2; i++) {
      const skipped = await ask(`And the personas? (${i})`);
      expect({ status: skipped.status, provider: skipped.body.provider }).toEqual({ status: 201, provider: 'offline' });
    }
    expect(provider.requests).toHaveLength(CONCURRENT);

    // Once the reset time has passed, a trial call goes to the provider again; it answers now, so the circuit closes.
    provider.mode = { kind: 'ok', text: 'The provider is back.' };
    await sleep(BREAKER_RESET_MS);
    await eventually(async () => (await ask('Are you back?')).body.provider === 'openai', {
      timeoutMs: 10_000,
      intervalMs: 200,
      what: 'the provider answering again',
    });
    expect(await circuit()).toBe('closed');
  }, 120_000);

  it('ends a streamed reply with the fallback, not a hang, when the provider stops mid-answer', async () => {
    const person = await register(platform.baseUrl, 'hang');
    const session = await call(platform.baseUrl, 'POST', '/api/chat/sessions', {
      token: person.token,
      body: { personaId: 'kasa', title: 'stall drill' },
    });
    provider.mode = { kind: 'stall', text: 'Kasa is a voice-first assistant and' };
    const started = Date.now();
    const res = await fetch(`${platform.baseUrl}/api/chat/sessions/${session.body.id}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${person.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ role: 'user', content: 'What is Kasa?', type: 'text' }),
      signal: AbortSignal.timeout(IDLE_TIMEOUT_MS + SLACK_MS + 10_000),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    // The stalled provider's words came first; the offline provider continued the reply; the stream finished.
    expect(text).toContain('"text":"Kasa"');
    expect(text).toMatch(/event: meta\ndata: \{[^\n]*"provider":"offline"[^\n]*"continued":true/);
    expect(text).toMatch(/event: done\n/);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS);
    expect(took).toBeLessThan(IDLE_TIMEOUT_MS + SLACK_MS);
  }, 90_000);
});
