import { ChatClient, runConcurrentStreams, streamingAgent } from '../support/chatClient';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Load through the real gateway and services (built output) with an instant fake AI provider. The short version runs
 * in `npm test`; `npm run test:load` runs the long one (KASA_LOAD_SECONDS of sustained rate, KASA_LOAD_STREAMS
 * streamed chats at once). Figures are printed, never asserted as budgets: what fails a run is an error.
 */
interface AutocannonResult {
  latency: { p50: number; p99: number };
  requests: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
// autocannon ships no types; only the fields read here are declared.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.KASA_LOAD_SECONDS ?? 5);
const STREAMS = Number(process.env.KASA_LOAD_STREAMS ?? 50);
/** Requests per second held for SECONDS. */
const RATE = Number(process.env.KASA_LOAD_RATE ?? 200);

let platform: RunningPlatform;
let provider: FakeOpenAI;
const dispatcher = streamingAgent();
let client: ChatClient;

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  platform = await startPlatform({
    LOG_LEVEL: 'error',
    CHAT_PROVIDERS: 'loadfake',
    LOADFAKE_BASE_URL: provider.baseURL,
    LOADFAKE_MODEL: 'fake-model',
    // One person makes every call: plan quotas, the per-minute limit and the concurrent-replies limit are not what
    // this measures (tests/security checks that they hold).
    PLAN_FREE_MONTHLY_CALLS: 'unlimited',
    API_RATE_LIMIT_PER_MINUTE: '10000000',
    CHAT_MAX_CONCURRENT_REPLIES: String(STREAMS + 10),
  });
  client = new ChatClient(platform.baseUrl, dispatcher);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
  await dispatcher.close();
});

it(
  `holds ${RATE} req/s of GET /api/personas with a token for ${SECONDS} s with no error`,
  async () => {
    const token = await client.signUp('rate');
    const result = await autocannon({
      url: `${platform.baseUrl}/api/personas`,
      headers: { authorization: `Bearer ${token}` },
      connections: 20,
      overallRate: RATE,
      duration: SECONDS,
    });
    const { p50, p99 } = result.latency;
    console.log(
      `load: GET /api/personas at ${RATE} req/s for ${SECONDS} s: ${result.requests.total} requests ` +
        `(${Math.round(result.requests.total / SECONDS)} req/s achieved), ` +
        `p50 ${p50} ms, p99 ${p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
    expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({
      errors: 0,
      timeouts: 0,
      non2xx: 0,
    });
    // Every request sent was answered with success, and requests were sent all along (not a run that silently did
    // nothing). How many the machine managed is the printed figure, not a pass mark.
    expect(result['2xx']).toBe(result.requests.total);
    expect(result.requests.total).toBeGreaterThanOrEqual(SECONDS);
  },
  (SECONDS + 60) * 1000,
);

it(
  `streams ${STREAMS} chat replies at once with none failed`,
  async () => {
    provider.mode = { kind: 'ok', text: 'Kasa answers in your language, by text or by voice, wherever you are.' };
    const tokens = [await client.signUp('streams')];
    const result = await runConcurrentStreams(client, tokens, STREAMS);
    console.log(
      `load: ${STREAMS} concurrent streamed chats in ${result.seconds} s, ${result.failed} failed; ` +
        `first token p50 ${result.firstTokenMs.p50} ms, p99 ${result.firstTokenMs.p99} ms; ` +
        `complete p50 ${result.completeMs.p50} ms, p99 ${result.completeMs.p99} ms` +
        (result.errors.length ? `\n${result.errors.join('\n')}` : ''),
    );
    expect(result.errors).toEqual([]);
    expect(result.failed).toBe(0);
    // Every stream was started against the provider.
    expect(provider.requests.length).toBeGreaterThanOrEqual(STREAMS);
  },
  60_000 + STREAMS * 1_000,
);
