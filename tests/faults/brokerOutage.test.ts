import { eventually } from '@kasa/test-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { EventCounter } from './support/eventCounter';
import { AMQP_TARGET, call, pick, register, via } from './support/faults';
import { TcpProxy } from './support/tcpProxy';

/**
 * The platform's connections to RabbitMQ go through a proxy that the test cuts (every connection dropped, new ones
 * refused) for 8 s in `npm test` (three times 40 s under `npm run test:faults`), and restores it. A consumer of the test's own,
 * connected to the broker directly, counts the events that arrive against the writes the platform acknowledged.
 */
const OUTAGE_MS = pick(8_000, 40_000);
/** How many times the connection is cut in one run. */
const OUTAGES = pick(1, 3);
const RECOVER_WITHIN_MS = 30_000;
/** Events held back during the outage must all arrive within this once the broker is back. */
const DELIVER_WITHIN_MS = 30_000;

let platform: RunningPlatform;
let broker: TcpProxy;
let counter: EventCounter;

beforeAll(async () => {
  broker = await new TcpProxy(AMQP_TARGET.hostname, Number(AMQP_TARGET.port || 5672)).start();
  counter = await new EventCounter(AMQP_TARGET.toString(), ['chat.message.created', 'auth.user.registered']).start();
  platform = await startPlatform({ AMQP_URL: via(AMQP_TARGET, broker.address), CHAT_OFFLINE_WORD_DELAY_MS: '1' });
}, 120_000);

afterAll(async () => {
  await broker?.restore();
  await platform?.stop();
  await broker?.stop();
  await counter?.stop();
});

const readiness = (service: 'auth' | 'chat' | 'voice' | 'status') =>
  call(`http://127.0.0.1:${platform.ports[service]}`, 'GET', '/readyz', { timeoutMs: 5_000 });
const SERVICES = ['auth', 'chat', 'voice', 'status'] as const;

describe('the broker connection dropped and restored', () => {
  it('keeps serving HTTP, reconnects by itself, and delivers every event written during the outage', async () => {
    const registered: string[] = [];
    const messageIds: string[] = [];
    const person = await register(platform.baseUrl, 'busfault');
    registered.push(person.userId);
    const session = await call(platform.baseUrl, 'POST', '/api/chat/sessions', {
      token: person.token,
      body: { personaId: 'kasa', title: 'broker drill' },
    });
    expect(session.status).toBe(201);
    /** One non-streamed turn; both stored messages (the question and the reply) are remembered when acknowledged. */
    const turn = async (n: number) => {
      const answer = await call(platform.baseUrl, 'POST', `/api/chat/sessions/${session.body.id}/messages`, {
        token: person.token,
        body: { role: 'user', content: `What is Kasa? (${n})`, type: 'text' },
        timeoutMs: 20_000,
      });
      expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 201 });
      messageIds.push(answer.body.userMessageId as string, answer.body.id as string);
    };
    await turn(0);

    let n = 0;
    for (let outage = 1; outage <= OUTAGES; outage += 1) {
      await broker.cut();
      // The services notice at once (the socket closes) and say so on /readyz, while HTTP keeps working.
      await eventually(
        async () => {
          const answers = await Promise.all(SERVICES.map(readiness));
          return answers.every((a) => a.status === 503 && a.body.checks.broker === false);
        },
        { timeoutMs: 10_000, intervalMs: 200, what: 'every service reporting the broker away' },
      );
      const outageEnds = Date.now() + OUTAGE_MS;
      const before = registered.length;
      while (Date.now() < outageEnds) {
        n += 1;
        const newcomer = await register(platform.baseUrl, 'busfault');
        registered.push(newcomer.userId);
        await turn(n);
        const personas = await call(platform.baseUrl, 'GET', '/api/personas', { token: person.token });
        expect(personas.status).toBe(200);
        await sleep(300);
      }
      expect(n).toBeGreaterThan(outage);
      // Nothing written during the outage has reached the broker yet.
      expect(
        counter.find('auth.user.registered', (d) => registered.slice(before).includes(d.userId as string)),
      ).toEqual([]);

      await broker.restore();
      await eventually(async () => (await Promise.all(SERVICES.map(readiness))).every((a) => a.status === 200), {
        timeoutMs: RECOVER_WITHIN_MS,
        intervalMs: 200,
        what: 'every service reconnected to the broker',
      });
    }
    await turn(n + 1);

    const missing = () => ({
      registrations: registered.filter(
        (id) => counter.find('auth.user.registered', (d) => d.userId === id).length === 0,
      ),
      messages: messageIds.filter((id) => counter.find('chat.message.created', (d) => d.messageId === id).length === 0),
    });
    await eventually(
      () => {
        const gaps = missing();
        return gaps.registrations.length === 0 && gaps.messages.length === 0;
      },
      {
        timeoutMs: DELIVER_WITHIN_MS,
        intervalMs: 200,
        what: 'every acknowledged registration and message announced on kasa.events',
      },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; missing ${JSON.stringify(missing())}\n${platform.logs.slice(-30).join('\n')}`);
    });
    expect(registered.length).toBe(n + 1);
    expect(messageIds.length).toBe(2 * (n + 2));
  }, 180_000);
});
