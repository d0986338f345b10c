import { eventually } from '@kasa/test-kit';
import { performance } from 'node:perf_hooks';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { call, expectClearError, pick, register } from './support/faults';

/**
 * A service process is killed (SIGKILL: no graceful shutdown), once in `npm test` and three times under
 * `npm run test:faults`, and started again: the chat service while a streamed reply is in flight, and the auth
 * service while people are signed in.
 */
const CRASHES = pick(1, 3);
/** The client must learn that the stream broke within this after the crash (never a hang). */
const NOTICE_WITHIN_MS = 5_000;

let platform: RunningPlatform;
let provider: FakeOpenAI;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform({
    CHAT_PROVIDERS: 'openai',
    OPENAI_API_KEY: 'sk-fault-suite',
    OPENAI_BASE_URL: provider.baseURL,
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
});

interface StreamEvent {
  event: string;
  data: any;
}

/** Reads a streamed reply through the gateway event by event; resolves with the events and how the stream ended. */
function openStream(token: string, sessionId: string, onEvent: (e: StreamEvent) => void) {
  return (async () => {
    const events: StreamEvent[] = [];
    const res = await fetch(`${platform.baseUrl}/api/chat/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ role: 'user', content: 'Tell me a long story about Kumasi.', type: 'text' }),
    });
    expect(res.status).toBe(200);
    let buffer = '';
    let broken: string | undefined;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) continue;
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1];
          const parsed = { event, data: data === undefined ? undefined : JSON.parse(data) };
          events.push(parsed);
          onEvent(parsed);
        }
      }
    } catch (err) {
      broken = (err as Error).message;
    }
    return { events, broken, endedAt: performance.now() };
  })();
}

describe('a service killed in the middle of a request', () => {
  it('ends the stream with an error event, answers 503 while the service is down, and works again after a restart', async () => {
    const person = await register(platform.baseUrl, 'crash');
    const session = await call(platform.baseUrl, 'POST', '/api/chat/sessions', {
      token: person.token,
      body: { personaId: 'kasa', title: 'crash drill' },
    });
    expect(session.status).toBe(201);
    const acknowledged: string[] = [];

    for (let crash = 1; crash <= CRASHES; crash += 1) {
      provider.mode = { kind: 'endless', intervalMs: 50 };
      let tokens = 0;
      let sawTokens!: () => void;
      const streaming = new Promise<void>((resolve) => (sawTokens = resolve));
      const stream = openStream(person.token, session.body.id as string, (e) => {
        if (e.event === 'meta') acknowledged.push(e.data.userMessageId as string);
        if (e.event === 'token' && ++tokens === 5) sawTokens();
      });
      await streaming;
      await platform.kill('chat');
      const killedAt = performance.now();
      const outcome = await stream;

      // The client is told, in the stream's own terms, that the reply broke off: an error event, not a hang.
      expect(outcome.endedAt - killedAt).toBeLessThan(NOTICE_WITHIN_MS);
      expect(outcome.broken).toBeUndefined();
      const last = outcome.events[outcome.events.length - 1];
      expect(last).toEqual({
        event: 'error',
        data: expect.objectContaining({ message: expect.stringMatching(/chat service/i), code: expect.any(String) }),
      });
      expect(outcome.events.some((e) => e.event === 'done')).toBe(false);

      // While it is down, the gateway answers at once with the shared error body.
      for (const [method, path] of [
        ['GET', '/api/chat/sessions'],
        ['POST', `/api/chat/sessions/${session.body.id}/messages`],
        ['GET', '/api/personas'],
      ] as const) {
        const answer = await call(platform.baseUrl, method, path, {
          token: person.token,
          body: method === 'POST' ? { role: 'user', content: 'Are you there?', type: 'text' } : undefined,
          timeoutMs: 10_000,
        });
        expectClearError(answer, [502, 503]);
        expect(answer.ms).toBeLessThan(5_000);
      }
      // The rest of the platform is unaffected.
      expect((await call(platform.baseUrl, 'GET', '/api/auth/me', { token: person.token })).status).toBe(200);

      await platform.restart('chat');
      provider.mode = { kind: 'ok', text: `Back after crash ${crash}.` };
      await eventually(
        async () => {
          const answer = await call(platform.baseUrl, 'POST', `/api/chat/sessions/${session.body.id}/messages`, {
            token: person.token,
            body: { role: 'user', content: `Hello again (${crash})`, type: 'text' },
          });
          if (answer.status !== 201) return false;
          acknowledged.push(answer.body.userMessageId as string);
          return answer.body.content === `Back after crash ${crash}.`;
        },
        { timeoutMs: 10_000, intervalMs: 200, what: 'a complete reply after the restart' },
      );
    }

    // Every message the service acknowledged (the crashed turns' questions included) is still in the conversation.
    const conversation = await call(platform.baseUrl, 'GET', `/api/chat/sessions/${session.body.id}?limit=50`, {
      token: person.token,
    });
    expect(conversation.status).toBe(200);
    const stored = new Set((conversation.body.messages as { id: string }[]).map((m) => m.id));
    expect(acknowledged.length).toBe(2 * CRASHES);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 180_000);

  it('keeps signed-in people chatting while the auth service is down, and lets them sign in again after', async () => {
    const person = await register(platform.baseUrl, 'crash');
    provider.mode = { kind: 'ok', text: 'Still here.' };
    for (let crash = 1; crash <= CRASHES; crash += 1) {
      await platform.kill('auth');
      const signIn = await call(platform.baseUrl, 'POST', '/api/auth/login', {
        body: { email: 'someone@example.com', password: 'whatever-1' },
        timeoutMs: 10_000,
      });
      expectClearError(signIn, [502, 503]);
      expect(signIn.ms).toBeLessThan(5_000);
      // Tokens are verified by the gateway with the public key it already holds: chat goes on.
      const session = await call(platform.baseUrl, 'POST', '/api/chat/sessions', {
        token: person.token,
        body: { personaId: 'kasa', title: `auth down ${crash}` },
      });
      expect(session.status).toBe(201);

      await platform.restart('auth');
      const again = await call(platform.baseUrl, 'GET', '/api/auth/me', { token: person.token });
      expect(again.status).toBe(200);
      expect((await register(platform.baseUrl, 'crash')).token).toBeTruthy();
    }
  }, 120_000);
});
