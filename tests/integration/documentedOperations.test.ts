import {
  AssistantReply,
  StreamMetaEvent,
  StreamTokenEvent,
  StoredMessage,
  z,
  documentedOperations,
  VideoJobEvent,
  type Operation,
} from '@kasa/contracts';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually, tinyGguf, unique } from '@kasa/test-kit';
import { Types, type Connection } from 'mongoose';
import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { FakeLanguageProviders } from '../support/fakeLanguageProviders';
import { FakeOpenAI } from '../support/fakeOpenAI';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { deleteQueues, startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Every operation of the OpenAPI document, called with valid input as a real client would, through the gateway and
 * the services built output: the documented success status, and a body that the documented response schema accepts.
 * Bodies are checked with the zod schemas the document is generated from (the same tables, so exactly what the
 * document says, refinements included); the operation set and success statuses come from the document the gateway
 * serves. The last test fails naming any documented operation that no test here exercised.
 *
 * Outside providers are faked at the edge (speech to text and translation: tests/support/fakeLanguageProviders.ts);
 * speech and video run offline with eSpeak NG and ffmpeg, chat replies with the built-in offline provider.
 */
const run = unique().slice(0, 8);
const AUTH_DB_NAME = `kasa_auth_ops_${run}`;
const VIDEO_QUEUE = `kasa.voice.video.ops-${run}`;

type Key = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

interface Documented {
  /** The success statuses the document gives (2xx and 3xx). */
  success: number[];
  /** Whether the document gives a JSON body for success. */
  json: boolean;
}

let platform: RunningPlatform;
let providers: FakeLanguageProviders;
let authDb: Connection;
let documented: Map<Key, Documented>;
const schemas = new Map<Key, Operation>(
  documentedOperations.map((op) => [`${op.method.toUpperCase()} ${op.path}` as Key, op]),
);
/** The operations a test below called with valid input and saw answer as documented. */
const exercised = new Set<Key>();

beforeAll(async () => {
  providers = await new FakeLanguageProviders().start();
  platform = await startPlatform({
    AUTH_DB_NAME,
    VOICE_VIDEO_QUEUE: VIDEO_QUEUE,
    // The webhook receiver below listens on this machine's loopback address.
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOKS_RETRY_SCHEDULE: '1s,1s',
    ...providers.env(),
  });
  authDb = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: AUTH_DB_NAME,
    logger: createLogger({ service: 'documented-operations-it', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
  const document = (await (await fetch(`${platform.baseUrl}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  };
  documented = new Map();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const success = Object.keys(op.responses)
        .map(Number)
        .filter((s) => s >= 200 && s < 400);
      const json = success.some((s) => op.responses[String(s)]?.content?.['application/json'] !== undefined);
      documented.set(`${method.toUpperCase()} ${path}` as Key, { success, json });
    }
  }
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await providers?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await deleteQueues(process.env.AMQP_URL, [VIDEO_QUEUE, `${VIDEO_QUEUE}.dlq`]);
});

interface Call {
  /** An access token or an API key. */
  token?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart body instead of JSON. */
  form?: FormData;
  /** Raw bytes as the body (an upload), sent with `headers`' Content-Type. */
  raw?: Uint8Array;
  headers?: Record<string, string>;
}

interface Answer<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

function request(key: Key, call: Call): Promise<Response> {
  const [method, template] = key.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`${key}: no value for the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const url = new URL(path, platform.baseUrl);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const json = call.body !== undefined;
  return fetch(url, {
    method,
    redirect: 'manual',
    headers: {
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...call.headers,
    },
    body: json ? JSON.stringify(call.body) : call.raw ? new Blob([new Uint8Array(call.raw)]) : call.form,
  });
}

/** Throws with the operation, what came back and the platform's last log lines: what a defect report needs. */
function fail(key: Key, message: string, answer?: { status: number; text: string }): never {
  const got = answer ? `\n  got ${answer.status}: ${answer.text.slice(0, 600)}` : '';
  throw new Error(`${key}: ${message}${got}\n  last log lines:\n${platform.logs.slice(-15).join('\n')}`);
}

function expectDocumentedStatus(key: Key, status: number, answer: { status: number; text: string }): void {
  const doc = documented.get(key) ?? fail(key, 'is not in the served OpenAPI document');
  if (!doc.success.includes(status)) fail(key, `${status} is not a documented success status (${doc.success})`);
  if (answer.status !== status) fail(key, `expected ${status}`, answer);
}

/**
 * Calls one documented operation with valid input: asserts the status, which must be one of the operation's
 * documented success statuses, and that the body matches the documented response schema; then counts the operation
 * as exercised.
 */
async function exercise<T = any>(key: Key, status: number, call: Call = {}): Promise<Answer<T>> {
  const res = await request(key, call);
  const type = res.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await res.arrayBuffer());
  // Audio or video where JSON was due is reported by its type and size, not as bytes in the failure message.
  const text =
    /^(application\/json|text\/)/.test(type) || bytes.length === 0
      ? bytes.toString('utf8')
      : `<${type}, ${bytes.length} bytes>`;
  const answer = { status: res.status, headers: res.headers, text, body: undefined as T };
  expectDocumentedStatus(key, status, answer);
  const op = schemas.get(key) ?? fail(key, 'has no entry in the contracts’ operation tables');
  if (op.response) {
    if (!/^application\/json\b/.test(res.headers.get('content-type') ?? ''))
      fail(key, `answered ${res.headers.get('content-type')}, not JSON`, answer);
    answer.body = JSON.parse(text) as T;
    const checked = op.response.safeParse(answer.body);
    if (!checked.success)
      fail(key, `the body does not match the documented schema: ${JSON.stringify(checked.error.issues)}`, answer);
  } else if (status === 204 && text !== '') {
    fail(key, '204 with a body', answer);
  }
  exercised.add(key);
  return answer;
}

interface SseEvent {
  event: string;
  data: string;
}

/** Reads a Server-Sent Events response to its end; `onEvent` sees each event as it arrives. */
async function readSse(res: Response, onEvent: (event: SseEvent) => void | Promise<void> = () => {}) {
  const events: SseEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const take = async (block: string) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue; // a comment (ping)
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    const parsed = { event, data: data.join('\n') };
    events.push(parsed);
    await onEvent(parsed);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      await take(block);
    }
  }
  if (buffer.trim()) await take(buffer);
  return events;
}

/** Opens a streamed call: it must answer 2xx with text/event-stream; the events are read by the caller. */
async function openStream(key: Key, call: Call): Promise<Response> {
  const res = await request(key, { ...call, headers: { accept: 'text/event-stream', ...call.headers } });
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    fail(key, `answered ${res.headers.get('content-type')}, not text/event-stream`, {
      status: res.status,
      text: await res.text(),
    });
  return res;
}

/**
 * Calls a streamed operation (Accept: text/event-stream): asserts a documented success status, reads the events to
 * the end (`onEvent` sees each as it arrives) and counts the operation as exercised.
 */
async function exerciseStream(
  key: Key,
  status: number,
  call: Call,
  onEvent?: (event: SseEvent) => void | Promise<void>,
): Promise<SseEvent[]> {
  const res = await openStream(key, call);
  // Read to the end first, so that a wrong status still leaves the stream closed and its reply stored.
  const events = await readSse(res, onEvent);
  expectDocumentedStatus(key, status, { status: res.status, text: `a text/event-stream of ${events.length} events` });
  exercised.add(key);
  return events;
}

/** Checks a chat reply stream: meta first, tokens, then done with the stored reply; returns the reply. */
function checkReplyEvents(key: Key, events: SseEvent[]): z.infer<typeof StoredMessage> {
  const names = events.map((e) => e.event);
  if (names[0] !== 'meta') fail(key, `the stream starts with ${names[0]}, not meta (${names})`);
  if (names.at(-1) !== 'done') fail(key, `the stream ends with ${names.at(-1)}, not done (${names})`);
  if (names.includes('error')) fail(key, `the stream carries an error event: ${JSON.stringify(events)}`);
  const schemaOf: Record<string, z.ZodType> = { meta: StreamMetaEvent, token: StreamTokenEvent, done: StoredMessage };
  for (const { event, data } of events) {
    const schema = schemaOf[event] ?? fail(key, `an undocumented event ${event}`);
    const checked = schema.safeParse(JSON.parse(data));
    if (!checked.success) fail(key, `event ${event} does not match: ${data.slice(0, 300)}`);
  }
  const reply = StoredMessage.parse(JSON.parse(events.at(-1)!.data));
  const streamed = events
    .filter((e) => e.event === 'token')
    .map((e) => (JSON.parse(e.data) as { text: string }).text)
    .join('');
  expect(reply.content).toBe(streamed);
  return reply;
}

interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
}

async function register(name: string, { counted = false } = {}): Promise<Person> {
  const id = unique().slice(0, 8);
  const person = { username: `${name}_${id}`, email: `${name}.${id}@example.com`, password: 'medaase-paa-42' };
  const answer = counted
    ? await exercise('POST /api/auth/register', 201, { body: person })
    : { body: (await (await request('POST /api/auth/register', { body: person })).json()) as any };
  expect(answer.body.user).toMatchObject({ username: person.username, email: person.email, subscriptionTier: 'free' });
  return { id: answer.body.user.id, email: person.email, password: person.password, token: answer.body.token };
}

/** Enterprise is sold by the sales team (the checkout only records an inquiry): the plan is set where auth keeps it. */
async function makeEnterprise(person: Person): Promise<Person> {
  await authDb
    .collection('users')
    .updateOne({ _id: new Types.ObjectId(person.id) }, { $set: { subscriptionTier: 'enterprise' } });
  const login = await request('POST /api/auth/login', { body: { email: person.email, password: person.password } });
  const body = (await login.json()) as { token: string; user: { subscriptionTier: string } };
  expect(body.user.subscriptionTier).toBe('enterprise');
  return { ...person, token: body.token };
}

/** A real recording: eSpeak NG reading a sentence, as WAV. */
async function recording(): Promise<Buffer> {
  const { stdout } = await promisify(execFile)('espeak-ng', ['--stdout', '-v', 'en-us', 'Good morning from Accra'], {
    encoding: 'buffer',
  });
  return stdout;
}

// Shared state, built up by the tests in order (each test names what it needs from the ones before).
let free: Person;
let pro: Person;
let owner: Person;
let proKey: { id: string; secret: string };
/** An image sent in the chat session (deleted with it). */
let attachmentId: string;

/** A real 4×4 PNG, made here: the upload's type is read from its bytes. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0]);
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [180, 30, 30]).flat()]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([row, row, row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
let videoJobId: string;
let sessionId: string;
let marker: string;

describe('every documented operation with valid input, through the built platform', () => {
  it('registers, signs in, reads the user and saves a theme that follows them', async () => {
    free = await register('ama', { counted: true });
    const login = await exercise('POST /api/auth/login', 200, {
      body: { email: free.email.toUpperCase(), password: free.password },
    });
    expect(login.body.user.id).toBe(free.id);
    const me = await exercise('GET /api/auth/me', 200, { token: login.body.token });
    expect(me.body.user).toMatchObject({ id: free.id, subscriptionTier: 'free', operator: false });

    const before = await exercise('GET /api/auth/preferences/theme', 200, { token: free.token });
    expect(before.body).toEqual({ theme: null, updatedAt: null });
    const theme = {
      mode: 'dark',
      colorScheme: 'cyber',
      animations: false,
      highContrast: true,
      customSettings: { borderRadius: 12, spacing: 16, fontSize: 16 },
    };
    const saved = await exercise('PUT /api/auth/preferences/theme', 200, { token: free.token, body: theme });
    expect(saved.body.theme).toEqual(theme);
    const after = await request('GET /api/auth/preferences/theme', { token: login.body.token });
    expect(((await after.json()) as { theme: unknown }).theme).toEqual(theme);

    const noTours = await exercise('GET /api/auth/preferences/tours', 200, { token: free.token });
    expect(noTours.body).toEqual({ tours: null, updatedAt: null });
    const tours = { hasSeenWelcome: true, completedTours: ['welcome'], skippedTours: ['chat'] };
    const savedTours = await exercise('PUT /api/auth/preferences/tours', 200, { token: free.token, body: tours });
    expect(savedTours.body.tours).toEqual(tours);

    const noLanguage = await exercise('GET /api/auth/preferences/language', 200, { token: free.token });
    expect(noLanguage.body).toEqual({ language: null, updatedAt: null });
    const twi = await exercise('PUT /api/auth/preferences/language', 200, {
      token: free.token,
      body: { language: 'tw' },
    });
    expect(twi.body.language).toBe('tw');
  });

  it('signs out by navigation: 302 to / and the token is refused afterwards', async () => {
    const leaving = await register('kofi');
    const res = await request('GET /api/auth/logout', { token: leaving.token });
    expectDocumentedStatus('GET /api/auth/logout', 302, { status: res.status, text: await res.text() });
    expect(res.headers.get('location')).toBe('/');
    exercised.add('GET /api/auth/logout');
    expect((await request('GET /api/auth/me', { token: leaving.token })).status).toBe(401);
  });

  it('signs out an API client in JSON, and the token is refused afterwards', async () => {
    const leaving = await register('esi');
    const out = await exercise('POST /api/auth/logout', 200, { token: leaving.token });
    expect(out.body).toEqual({ success: true, message: 'Signed out' });
    expect((await request('GET /api/auth/me', { token: leaving.token })).status).toBe(401);
  });

  it('lists the plans and sells Pro through the checkout, with the payment readable by its reference', async () => {
    const plans = await exercise('GET /api/billing/plans', 200);
    expect(plans.body.plans.map((p: { id: string }) => p.id)).toEqual(['free', 'pro', 'enterprise']);

    const nothing = await exercise('POST /api/billing/checkout', 200, { token: free.token, body: { planId: 'free' } });
    expect(nothing.body.outcome).toBe('already_on_plan');
    const inquiry = await exercise('POST /api/billing/checkout', 202, {
      token: free.token,
      body: { planId: 'enterprise' },
    });
    expect(inquiry.body.outcome).toBe('inquiry_received');

    const buyer = await register('esi');
    const paid = await exercise('POST /api/billing/checkout', 201, { token: buyer.token, body: { planId: 'pro' } });
    expect(paid.body).toMatchObject({ outcome: 'checkout', planId: 'pro', status: 'completed' });
    expect(paid.body.user.subscriptionTier).toBe('pro');
    pro = { ...buyer, token: paid.body.token };
    const payment = await exercise('GET /api/billing/checkout/{reference}', 200, {
      token: pro.token,
      params: { reference: paid.body.reference },
    });
    expect(payment.body).toMatchObject({ reference: paid.body.reference, planId: 'pro', status: 'completed' });

    // The success page's call; the subscription the checkout started (test mode here), its page, cancel and resume.
    const verified = await exercise('POST /api/billing/checkout/{reference}/verify', 200, {
      token: pro.token,
      params: { reference: paid.body.reference },
    });
    expect(verified.body).toMatchObject({ status: 'completed', user: { subscriptionTier: 'pro' } });
    const subscription = await exercise('GET /api/billing/subscription', 200, { token: pro.token });
    expect(subscription.body.subscription).toMatchObject({ processor: 'builtin', planId: 'pro', status: 'active' });
    const portal = await exercise('POST /api/billing/portal', 200, { token: pro.token });
    expect(portal.body.processor).toBe('builtin');
    const cancelled = await exercise('POST /api/billing/subscription/cancel', 200, { token: pro.token });
    expect(cancelled.body.subscription).toMatchObject({ cancelAtPeriodEnd: true });
    const resumed = await exercise('POST /api/billing/subscription/resume', 200, { token: pro.token });
    expect(resumed.body.subscription).toMatchObject({ cancelAtPeriodEnd: false });

    // An extra-calls pack, the history of both payments, and a receipt as a page and as a PDF.
    const pack = await exercise('POST /api/billing/add-ons/checkout', 201, {
      token: pro.token,
      body: { addOnId: 'extra-calls' },
    });
    expect(pack.body).toMatchObject({ outcome: 'checkout', status: 'completed', payment: { addOnId: 'extra-calls' } });
    const history = await exercise('GET /api/billing/history', 200, { token: pro.token, query: { limit: '10' } });
    expect(history.body.payments.map((p: { reference: string }) => p.reference)).toEqual([
      pack.body.reference,
      paid.body.reference,
    ]);
    const receipt = await exercise('GET /api/billing/receipts/{reference}', 200, {
      token: pro.token,
      params: { reference: paid.body.reference },
    });
    expect(receipt.headers.get('content-type')).toMatch(/^text\/html/);
    expect(receipt.text).toContain(paid.body.reference);
    const pdf = await exercise('GET /api/billing/receipts/{reference}/receipt.pdf', 200, {
      token: pro.token,
      params: { reference: paid.body.reference },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('takes a newsletter subscription and a contact message from the public site', async () => {
    const email = `reader.${run}@example.com`;
    const first = await exercise('POST /api/newsletter', 200, { body: { email } });
    const again = await exercise('POST /api/newsletter', 200, { body: { email: email.toUpperCase() } });
    expect(again.body).toEqual(first.body);
    const contact = await exercise('POST /api/contact', 201, {
      body: {
        name: 'Yaw Mensah',
        email: `yaw.${run}@example.com`,
        subject: 'Partnership',
        message: 'We would like to use Kasa in our schools in Kumasi.',
      },
    });
    expect(contact.body.reference).toMatch(/^MSG-[0-9A-HJKMNP-TV-Z]{8}$/);
  });

  it('creates an API key shown once and lists it masked', async () => {
    const created = await exercise('POST /api/developer/keys', 201, {
      token: pro.token,
      body: { name: 'Documented operations', expiresInDays: 30 },
    });
    proKey = { id: created.body.key.id, secret: created.body.secret };
    expect(proKey.secret).toMatch(/^ksk_[A-Za-z0-9_-]{43}$/);
    const listed = await exercise('GET /api/developer/keys', 200, { token: pro.token });
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toEqual([proKey.id]);
    expect(listed.text).not.toContain(proKey.secret);
  });

  it('queues a video for an Enterprise user (its result is fetched at the end)', async () => {
    owner = await makeEnterprise(await register('abena'));
    const created = await exercise('POST /api/video/generations', 202, {
      token: owner.token,
      body: { prompt: 'Akwaaba! Welcome to Kasa.', language: 'en' },
    });
    expect(created.body).toMatchObject({ status: 'queued', progress: 0 });
    videoJobId = created.body.id;

    // Its events, pushed by the voice service through the gateway as the offline renderer makes it, to the end.
    const events = await exerciseStream('GET /api/video/generations/{id}/events', 200, {
      token: owner.token,
      params: { id: videoJobId },
    });
    const jobs = events.map((e) => {
      const parsed = VideoJobEvent.safeParse(JSON.parse(e.data));
      if (!parsed.success) throw new Error(`a ${e.event} event does not match VideoJobEvent: ${e.data}`);
      return { event: e.event, ...parsed.data };
    });
    const rank = { queued: 0, running: 1, succeeded: 2, failed: 2 };
    for (let i = 1; i < jobs.length; i++) {
      expect(rank[jobs[i]!.status]).toBeGreaterThanOrEqual(rank[jobs[i - 1]!.status]);
      expect(jobs[i]!.progress).toBeGreaterThanOrEqual(jobs[i - 1]!.progress);
    }
    // Queued (with its place) when the stream opened, unless the worker had already taken it; then done.
    expect(['queued', 'running']).toContain(jobs[0]!.status);
    if (jobs[0]!.status === 'queued') expect(jobs[0]!.queuePosition).toBe(0);
    // (A short video may render between two progress writes: the bar's movement is the browser test's to show.)
    expect(jobs.at(-1)).toMatchObject({ event: 'done', id: videoJobId, status: 'succeeded', progress: 100 });
    expect(events.slice(0, -1).every((e) => e.event === 'job')).toBe(true);
  });

  it('answers the public language, voice and geo calls', async () => {
    const languages = await exercise('GET /api/languages', 200, { query: { capability: 'speak' } });
    expect(languages.body.count).toBe(languages.body.languages.length);
    expect(languages.body.languages.map((l: { code: string }) => l.code)).toContain('sw');
    const twi = await exercise('GET /api/languages/{code}', 200, { params: { code: 'tw' } });
    expect(twi.body).toMatchObject({ code: 'tw' });
    const detected = await exercise('POST /api/languages/detect', 200, {
      body: { text: 'Habari ya asubuhi, rafiki yangu', hints: { browserLocale: 'en-KE' } },
    });
    expect(detected.body.language).toBe('sw');
    const voices = await exercise('GET /api/voice/voices', 200, { query: { language: 'sw' } });
    expect(voices.body.voices.length).toBeGreaterThan(0);
    const samples = await exercise('GET /api/voice/samples', 200);
    expect(samples.body.samples.length).toBeGreaterThan(0);
    const status = await exercise('GET /api/voice/status', 200);
    expect(status.body).toMatchObject({
      status: 'ok',
      transcription: { status: 'operational' },
      translation: { status: 'operational' },
    });

    const accra = await exercise('GET /api/geo', 200, { query: { ip: '41.66.199.1' } });
    expect(accra.body).toMatchObject({ found: true, country: 'GH', currency: 'GHS' });
    // The caller's own address (loopback here) is an unknown place, never an error.
    const here = await exercise('GET /api/geo', 200);
    expect(here.body).toMatchObject({ found: false, suggestedLanguages: [] });
  });

  it('synthesizes speech for Pro with an API key, and the audio can be fetched', async () => {
    const spoken = await exercise('POST /api/voice/synthesize', 201, {
      token: proKey.secret,
      headers: { accept: 'application/json' },
      body: { text: 'Karibu Kasa. Habari yako?', language: 'sw' },
    });
    // The system's espeak-ng, or its WebAssembly build when the system program did not answer its start-up probe.
    expect(spoken.body).toMatchObject({ language: 'sw', engine: expect.stringMatching(/^espeak-ng(-wasm)?$/) });
    expect(spoken.body.duration).toBeGreaterThan(0);
    const key = 'GET /api/voice/audio/{id}' as const;
    const id = /\/api\/voice\/audio\/([A-Za-z0-9_-]{22})$/.exec(spoken.body.audioUrl as string)?.[1];
    expect(id).toBeDefined();
    const audio = await request(key, { params: { id: id! } });
    const bytes = Buffer.from(await audio.arrayBuffer());
    expectDocumentedStatus(key, 200, { status: audio.status, text: '' });
    expect(audio.headers.get('content-type')).toMatch(/^audio\//);
    expect(Number(audio.headers.get('x-audio-duration'))).toBeGreaterThan(0);
    expect(bytes.byteLength).toBeGreaterThan(1_000);
    const part = await request(key, { params: { id: id! }, headers: { range: 'bytes=0-99' } });
    expectDocumentedStatus(key, 206, { status: part.status, text: '' });
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
    exercised.add(key);
  });

  it('answers synthesis with the documented JSON when the client accepts anything (Accept: */*)', async () => {
    // fetch, curl and most HTTP libraries send Accept: */*; the document streams audio only for Accept: audio/*.
    const spoken = await exercise('POST /api/voice/synthesize', 201, {
      token: pro.token,
      headers: { accept: '*/*' },
      body: { text: 'Akwaaba.', language: 'en' },
    });
    expect(spoken.body.audioUrl).toMatch(/^\/api\/voice\/audio\//);
  });

  it('transcribes an uploaded recording through the speech-to-text provider', async () => {
    const wav = await recording();
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'clip.wav');
    form.append('language', 'en');
    const before = providers.requestsTo('/v1/speech:recognize').length;
    const heard = await exercise('POST /api/voice/transcribe', 200, { token: pro.token, form });
    expect(heard.body).toMatchObject({ text: providers.transcript, language: 'en', provider: 'google' });
    const [sent] = providers.requestsTo('/v1/speech:recognize').slice(before);
    const sentAudio = (JSON.parse(sent!.body.toString('utf8')) as { audio: { content: string } }).audio.content;
    expect(Buffer.from(sentAudio, 'base64').equals(wav)).toBe(true);
  });

  it('reads text aloud through OpenAI’s speech API with an API key: the audio itself', async () => {
    const spoken = await exercise('POST /v1/audio/speech', 200, {
      token: proKey.secret,
      body: { model: 'tts-1', voice: 'alloy', input: 'Karibu Kasa.', language: 'sw', response_format: 'wav' },
    });
    expect(spoken.headers.get('content-type')).toBe('audio/wav');
    expect(spoken.text).toMatch(/^<audio\/wav, \d+ bytes>$/);
  });

  it('transcribes a recording through OpenAI’s transcription API', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await recording())]), 'clip.wav');
    form.append('model', 'whisper-1');
    form.append('language', 'en');
    const heard = await exercise('POST /v1/audio/transcriptions', 200, { token: proKey.secret, form });
    expect(heard.body).toEqual({ text: providers.transcript });
  });

  it('translates through the translation provider', async () => {
    const translated = await exercise('POST /api/translate', 200, {
      token: pro.token,
      body: { text: 'Good morning, how are you?', from: 'en', to: 'tw' },
    });
    expect(translated.body).toEqual({ text: providers.translation, from: 'en', to: 'tw', provider: 'edge-translator' });
    expect(providers.requestsTo('/v1/chat/completions').length).toBeGreaterThan(0);
  });

  it('chats: personas, a session and a message answered whole', async () => {
    const personas = await exercise('GET /api/personas', 200, { token: proKey.secret });
    expect(personas.body.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']),
    );
    // The offline provider always answers last, so the list is never empty.
    const chain = await exercise('GET /api/chat/providers', 200, { token: pro.token });
    expect(chain.body.providers.at(-1)).toMatchObject({ name: 'offline', circuit: 'closed' });
    // Anyone, signed in or not, may ask what chat can do here: nothing connected, documents are quoted.
    const capabilities = await exercise('GET /api/chat/capabilities', 200);
    expect(capabilities.body).toEqual({
      aiConnected: false,
      images: false,
      documents: 'quotes',
      tools: false,
      structuredOutput: false,
    });
    const session = await exercise('POST /api/chat/sessions', 201, {
      token: pro.token,
      body: { personaId: 'nana', title: 'Weekend in Accra' },
    });
    sessionId = session.body.id;
    marker = `kente${run}`;
    const reply = await exercise('POST /api/chat/sessions/{sessionId}/messages', 201, {
      token: pro.token,
      params: { sessionId },
      body: { role: 'user', content: `Where can I buy ${marker} cloth in Accra?`, type: 'text', language: 'en' },
    });
    expect(AssistantReply.safeParse(reply.body).success).toBe(true);
    expect(reply.body).toMatchObject({ role: 'assistant', status: 'complete' });
    expect(reply.body.content.length).toBeGreaterThan(0);
  });

  it('streams a reply as Server-Sent Events: meta, tokens, then done with the stored reply', async () => {
    // The document gives 200 text/event-stream as the streamed answer (201 JSON otherwise).
    const events = await exerciseStream('POST /api/chat/sessions/{sessionId}/messages', 200, {
      token: pro.token,
      params: { sessionId },
      body: { role: 'user', content: 'And what should I eat there?' },
    });
    expect(checkReplyEvents('POST /api/chat/sessions/{sessionId}/messages', events).status).toBe('complete');
  });

  it('lists, reads, renames and searches sessions', async () => {
    const page = await exercise('GET /api/chat/sessions', 200, { token: pro.token, query: { limit: '10' } });
    expect(page.body.sessions.map((s: { id: string }) => s.id)).toEqual([sessionId]);
    const one = await exercise('GET /api/chat/sessions/{sessionId}', 200, {
      token: pro.token,
      params: { sessionId },
      query: { limit: '10' },
    });
    expect(one.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const renamed = await exercise('PATCH /api/chat/sessions/{sessionId}', 200, {
      token: pro.token,
      params: { sessionId },
      body: { title: 'Accra weekend plans' },
    });
    expect(renamed.body).toMatchObject({ id: sessionId, title: 'Accra weekend plans' });
    const found = await exercise('GET /api/chat/search', 200, { token: pro.token, query: { q: marker.toUpperCase() } });
    expect(found.body.results).toEqual([
      expect.objectContaining({ sessionId, sessionTitle: 'Accra weekend plans', personaId: 'nana' }),
    ]);
  });

  it('shares a conversation as a read-only link that anyone can read until its owner stops sharing it', async () => {
    const shared = await exercise('POST /api/chat/sessions/{sessionId}/share', 201, {
      token: pro.token,
      params: { sessionId },
    });
    const link = await exercise('GET /api/chat/sessions/{sessionId}/share', 200, {
      token: pro.token,
      params: { sessionId },
    });
    expect(link.body).toEqual(shared.body);
    // No token: the link is all a reader needs.
    const page = await exercise('GET /api/chat/shared/{token}', 200, { params: { token: shared.body.token } });
    expect(page.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    await exercise('DELETE /api/chat/sessions/{sessionId}/share', 204, { token: pro.token, params: { sessionId } });
    expect((await request('GET /api/chat/shared/{token}', { params: { token: shared.body.token } })).status).toBe(404);
  });

  it('stops a resumable reply while it is written, and follows the stopped reply as a stream', async () => {
    const key = 'POST /api/chat/sessions/{sessionId}/messages' as const;
    let stopped: Answer | undefined;
    // The streamed call's status is the subject of the test above; here, the stop and the follow-up stream.
    const writing = await openStream(key, {
      token: pro.token,
      params: { sessionId },
      body: { role: 'user', content: 'Tell me everything about the history of Accra.', resumable: true },
    });
    const events = await readSse(writing, async (event) => {
      // The stop button, pressed as soon as the reply has begun.
      if (event.event !== 'meta' || stopped) return;
      const { assistantMessageId } = JSON.parse(event.data) as { assistantMessageId: string };
      stopped = await exercise('POST /api/chat/sessions/{sessionId}/messages/{messageId}/stop', 202, {
        token: pro.token,
        params: { sessionId, messageId: assistantMessageId },
      });
    });
    expect(stopped).toBeDefined();
    const reply = checkReplyEvents(key, events);
    expect(reply.status).toBe('stopped');

    const followed = await exerciseStream('GET /api/chat/sessions/{sessionId}/messages/{messageId}/stream', 200, {
      token: pro.token,
      params: { sessionId, messageId: reply.id },
    });
    const again = checkReplyEvents('GET /api/chat/sessions/{sessionId}/messages/{messageId}/stream', followed);
    expect(again).toMatchObject({ id: reply.id, status: 'stopped', content: reply.content });
  });

  it('edits a message and regenerates an answer, whole and streamed, and shows another version', async () => {
    // A conversation of its own: the ones above keep their messages as the other tests expect them.
    const created = await exercise('POST /api/chat/sessions', 201, {
      token: pro.token,
      body: { personaId: 'kasa', title: 'Versions' },
    });
    const params = { sessionId: created.body.id as string };
    const first = await exercise('POST /api/chat/sessions/{sessionId}/messages', 201, {
      token: pro.token,
      params,
      body: { role: 'user', content: 'What is Kasa?' },
    });
    const edit = 'POST /api/chat/sessions/{sessionId}/messages/{messageId}/edit' as const;
    const edited = await exercise(edit, 201, {
      token: pro.token,
      params: { ...params, messageId: first.body.userMessageId },
      body: { content: 'Which personas does Kasa have?' },
    });
    expect(edited.body).toMatchObject({ role: 'assistant', status: 'complete', version: { index: 0, count: 1 } });
    const streamedEdit = await exerciseStream(edit, 200, {
      token: pro.token,
      params: { ...params, messageId: first.body.userMessageId },
      body: { role: 'user', content: 'What plans does Kasa have?', resumable: true },
    });
    expect(checkReplyEvents(edit, streamedEdit).status).toBe('complete');

    const regenerate = 'POST /api/chat/sessions/{sessionId}/messages/{messageId}/regenerate' as const;
    const again = await exercise(regenerate, 201, {
      token: pro.token,
      params: { ...params, messageId: first.body.id },
    });
    expect(again.body).toMatchObject({ userMessageId: first.body.userMessageId, version: { index: 1, count: 2 } });
    const streamedAgain = await exerciseStream(regenerate, 200, {
      token: pro.token,
      params: { ...params, messageId: first.body.id },
      body: { language: 'en' },
    });
    expect(checkReplyEvents(regenerate, streamedAgain).status).toBe('complete');

    // Three versions of the question; the first one is shown again, with the newest of its answers.
    const shown = await exercise('POST /api/chat/sessions/{sessionId}/messages/{messageId}/select', 200, {
      token: pro.token,
      params: { ...params, messageId: first.body.userMessageId },
      query: { limit: '10' },
    });
    expect(shown.body.messages.map((m: { role: string; content: string }) => m.content)[0]).toBe('What is Kasa?');
    expect(shown.body.messages[0].version).toMatchObject({ index: 0, count: 3 });
    expect(shown.body.messages[1].version).toMatchObject({ index: 2, count: 3 });
  });

  it('answers the OpenAI-compatible calls with an API key, whole and streamed', async () => {
    const models = await exercise('GET /v1/models', 200, { token: proKey.secret });
    expect(models.body.data.map((m: { id: string }) => m.id)).toContain('kasa');
    const model = await exercise('GET /v1/models/{id}', 200, { token: proKey.secret, params: { id: 'nana' } });
    expect(model.body).toMatchObject({ id: 'nana', object: 'model' });

    // The document gives no schema for this body: it is OpenAI's chat.completion, checked here by its shape.
    const ChatCompletion = z.object({
      id: z.string(),
      object: z.literal('chat.completion'),
      created: z.number(),
      model: z.string(),
      choices: z
        .array(
          z.object({
            index: z.number(),
            message: z.object({ role: z.literal('assistant'), content: z.string().min(1) }),
            finish_reason: z.string(),
          }),
        )
        .length(1),
      usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }),
    });
    const body = { model: 'kasa', messages: [{ role: 'user', content: 'Say hello in Twi.' }] };
    const whole = await request('POST /v1/chat/completions', { token: proKey.secret, body });
    const text = await whole.text();
    expectDocumentedStatus('POST /v1/chat/completions', 200, { status: whole.status, text });
    const checked = ChatCompletion.safeParse(JSON.parse(text));
    if (!checked.success) fail('POST /v1/chat/completions', `not a chat.completion: ${text.slice(0, 400)}`);

    const ChatChunk = z.object({ object: z.literal('chat.completion.chunk'), choices: z.array(z.unknown()) });
    const events = await exerciseStream('POST /v1/chat/completions', 200, {
      token: proKey.secret,
      body: { ...body, stream: true, stream_options: { include_usage: true } },
    });
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => ChatChunk.parse(JSON.parse(e.data)));
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('answers OpenAI’s Responses API with an API key: a response stored, continued, read and deleted', async () => {
    const first = await exercise('POST /v1/responses', 200, {
      token: proKey.secret,
      body: { model: 'kasa', input: 'Say hello in Twi.', instructions: 'Answer in one sentence.' },
    });
    expect(first.body).toMatchObject({ object: 'response', status: 'completed' });
    const next = await exercise('POST /v1/responses', 200, {
      token: proKey.secret,
      body: { model: 'kasa', input: 'And in Ewe?', previous_response_id: first.body.id },
    });
    expect(next.body.previous_response_id).toBe(first.body.id);
    const read = await exercise('GET /v1/responses/{id}', 200, { token: proKey.secret, params: { id: next.body.id } });
    expect(read.body.id).toBe(next.body.id);
    const deleted = await exercise('DELETE /v1/responses/{id}', 200, {
      token: proKey.secret,
      params: { id: next.body.id },
    });
    expect(deleted.body).toMatchObject({ id: next.body.id, deleted: true });
  });

  it('manages an Enterprise user’s custom personas', async () => {
    const created = await exercise('POST /api/personas', 201, {
      token: owner.token,
      body: {
        name: 'Kwaku',
        expertise: 'Cocoa farming in the Ashanti region',
        systemPrompt: 'You advise smallholder cocoa farmers, briefly and practically.',
        color: '#6d28d9',
      },
    });
    const id = created.body.id as string;
    const edited = await exercise('PATCH /api/personas/{id}', 200, {
      token: owner.token,
      params: { id },
      body: { greeting: 'Akwaaba, farmer!' },
    });
    expect(edited.body).toMatchObject({ id, name: 'Kwaku', greeting: 'Akwaaba, farmer!' });
    await exercise('DELETE /api/personas/{id}', 204, { token: owner.token, params: { id } });
    const personas = (await (await request('GET /api/personas', { token: owner.token })).json()) as { id: string }[];
    expect(personas.map((p) => p.id)).not.toContain(id);
  });

  it('reports service health and the caller’s analytics, sessions and usage', async () => {
    const health = await exercise('GET /api/developer/services/status', 200, { token: proKey.secret });
    expect(health.text).toContain('chat');
    const status = await exercise('GET /api/status', 200);
    expect(status.body.services.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['chat', 'status']),
    );
    // The published keys verify the access tokens Kasa signs.
    const jwks = await exercise('GET /.well-known/jwks.json', 200);
    const [header, payload, signature] = pro.token.split('.') as [string, string, string];
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
    const jwk = jwks.body.keys.find((key: { kid: string }) => key.kid === kid);
    expect(jwk).toBeDefined();
    const verified = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      createPublicKey({ key: jwk, format: 'jwk' }),
      Buffer.from(signature, 'base64url'),
    );
    expect(verified).toBe(true);
    await exercise('GET /api/developer/analytics', 200, { token: pro.token });
    // The session reaches the status service as an event: wait for it.
    const sessions = await eventually(
      async () => {
        const answer = await exercise('GET /api/analytics/sessions', 200, {
          token: proKey.secret,
          query: { limit: '10' },
        });
        const ours = answer.body.data.find((s: { id: string }) => s.id === sessionId);
        return ours?.messageCount > 0 && ours;
      },
      { timeoutMs: 10_000, intervalMs: 200, what: 'the chat session and its messages are in the analytics' },
    );
    expect(sessions).toMatchObject({ personaId: 'nana' });
    const usage = await exercise('GET /api/analytics/usage', 200, {
      token: pro.token,
      query: { days: '7', keyId: proKey.id },
    });
    expect(usage.body.data.days).toHaveLength(7);
  });

  it('runs a team: invitations accepted, declined and revoked, roles, removal and deletion', async () => {
    const teamed = await exercise('POST /api/developer/team', 201, {
      token: owner.token,
      body: { name: 'Accra Devs' },
    });
    expect(teamed.body).toMatchObject({ role: 'owner', team: { name: 'Accra Devs', tier: 'enterprise' } });
    const [joiner, decliner, uninvited] = await Promise.all([register('kwame'), register('efua'), register('yaa')]);

    const invite = (email: string) =>
      exercise('POST /api/developer/team/invitations', 201, { token: owner.token, body: { email, role: 'member' } });
    const toJoiner = await invite(joiner.email);
    const mine = await exercise('GET /api/developer/invitations', 200, { token: joiner.token });
    expect(mine.body.invitations).toEqual([
      expect.objectContaining({ id: toJoiner.body.id, team: expect.objectContaining({ name: 'Accra Devs' }) }),
    ]);
    const joined = await exercise('POST /api/developer/invitations/{invitationId}/accept', 200, {
      token: joiner.token,
      params: { invitationId: toJoiner.body.id },
    });
    expect(joined.body.role).toBe('member');

    const promoted = await exercise('PATCH /api/developer/team/members/{userId}', 200, {
      token: owner.token,
      params: { userId: joiner.id },
      body: { role: 'admin' },
    });
    expect(promoted.body.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: joiner.id, role: 'admin' })]),
    );

    const toDecliner = await invite(decliner.email);
    await exercise('DELETE /api/developer/invitations/{invitationId}', 204, {
      token: decliner.token,
      params: { invitationId: toDecliner.body.id },
    });
    const toUninvited = await invite(uninvited.email);
    await exercise('DELETE /api/developer/team/invitations/{invitationId}', 204, {
      token: owner.token,
      params: { invitationId: toUninvited.body.id },
    });
    expect(
      (await (await request('GET /api/developer/invitations', { token: uninvited.token })).json()) as object,
    ).toEqual({
      invitations: [],
    });

    await exercise('DELETE /api/developer/team/members/{userId}', 204, {
      token: owner.token,
      params: { userId: joiner.id },
    });
    // The team's audit log: written from the events, so read once the last change is in it.
    await eventually(
      async () => {
        const res = await request('GET /api/developer/team/audit', {
          token: owner.token,
          query: { action: 'team.member_removed' },
        });
        return res.status === 200 && ((await res.json()) as { entries: unknown[] }).entries.length > 0;
      },
      { timeoutMs: 15_000, what: 'the removal in the team’s audit log' },
    );
    const audit = await exercise('GET /api/developer/team/audit', 200, {
      token: owner.token,
      query: { limit: '20', from: new Date(Date.now() - 3600_000).toISOString() },
    });
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining([
        'team.invitation_sent',
        'team.member_joined',
        'team.role_changed',
        'team.invitation_revoked',
        'team.member_removed',
      ]),
    );
    const team = await exercise('GET /api/developer/team', 200, { token: owner.token });
    expect(team.body.members.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    expect(team.body.invitations).toEqual([]);
    await exercise('DELETE /api/developer/team', 204, { token: owner.token });
    expect((await request('GET /api/developer/team', { token: owner.token })).status).toBe(404);
  });

  it('finishes the video, lists it, and serves the MP4 whole and by range without a token', async () => {
    const job = await eventually(
      async () => {
        const answer = await exercise('GET /api/video/generations/{id}', 200, {
          token: owner.token,
          params: { id: videoJobId },
        });
        return ['succeeded', 'failed'].includes(answer.body.status) && answer.body;
      },
      { timeoutMs: 60_000, intervalMs: 250, what: 'the video job finishes' },
    );
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
    const list = await exercise('GET /api/video/generations', 200, {
      token: owner.token,
      query: { limit: '5', status: 'succeeded' },
    });
    expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual([videoJobId]);
    const captions = await exercise('GET /api/video/generations/{id}/captions', 200, {
      token: owner.token,
      params: { id: videoJobId },
    });
    expect(captions.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(captions.text).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> .+\nAkwaaba!\n/);

    const fileId = /\/api\/video\/files\/([A-Za-z0-9_-]{22})$/.exec(job.videoUrl as string)?.[1];
    expect(fileId).toBeDefined();
    const key = 'GET /api/video/files/{id}' as const;
    const whole = await request(key, { params: { id: fileId! } });
    const bytes = Buffer.from(await whole.arrayBuffer());
    expectDocumentedStatus(key, 200, { status: whole.status, text: '' });
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const part = await request(key, { params: { id: fileId! }, headers: { range: 'bytes=0-99' } });
    expectDocumentedStatus(key, 206, { status: part.status, text: '' });
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
    exercised.add(key);
  });

  it('uploads an image, reads it and its thumbnail, sends it with a message, and deletes an attachment', async () => {
    const png = tinyPng();
    const uploaded = await exercise('POST /api/chat/attachments', 201, {
      token: pro.token,
      query: { name: 'adinkra.png' },
      headers: { 'content-type': 'application/octet-stream' },
      raw: png,
    });
    expect(uploaded.body).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      size: png.length,
      hasThumbnail: true,
    });
    const file = await request('GET /api/chat/attachments/{id}', {
      token: pro.token,
      params: { id: uploaded.body.id },
    });
    expectDocumentedStatus('GET /api/chat/attachments/{id}', 200, { status: file.status, text: '' });
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    exercised.add('GET /api/chat/attachments/{id}');
    const thumbnail = await exercise('GET /api/chat/attachments/{id}/thumbnail', 200, {
      token: pro.token,
      params: { id: uploaded.body.id },
    });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');

    // The offline provider cannot see images: the reply says so plainly, then answers from the text.
    const reply = await exercise('POST /api/chat/sessions/{sessionId}/messages', 201, {
      token: pro.token,
      params: { sessionId },
      body: { role: 'user', content: 'What does this symbol mean?', attachmentIds: [uploaded.body.id] },
    });
    expect(reply.body.content).toMatch(/^I can't see images right now/);

    const spare = await exercise('POST /api/chat/attachments', 201, {
      token: pro.token,
      query: { name: 'notes.md' },
      headers: { 'content-type': 'text/markdown' },
      raw: Buffer.from('# Kente\nWoven in Bonwire.'),
    });
    expect(spare.body).toMatchObject({ kind: 'document', mediaType: 'text/markdown', pages: 1 });
    await exercise('DELETE /api/chat/attachments/{id}', 204, { token: pro.token, params: { id: spare.body.id } });
    expect(
      (await request('GET /api/chat/attachments/{id}', { token: pro.token, params: { id: spare.body.id } })).status,
    ).toBe(404);
    attachmentId = uploaded.body.id;
  });

  it('revokes an API key and then refuses it', async () => {
    await exercise('DELETE /api/developer/keys/{keyId}', 204, { token: pro.token, params: { keyId: proKey.id } });
    await eventually(async () => (await request('GET /api/personas', { token: proKey.secret })).status === 401, {
      timeoutMs: 3_000,
      what: 'the revoked key is refused',
    });
  });

  it('deletes a session and its messages', async () => {
    await exercise('DELETE /api/chat/sessions/{sessionId}', 204, { token: pro.token, params: { sessionId } });
    expect(
      (await request('GET /api/chat/sessions/{sessionId}', { token: pro.token, params: { sessionId } })).status,
    ).toBe(404);
    // The image sent in it went with it.
    expect(
      (await request('GET /api/chat/attachments/{id}', { token: pro.token, params: { id: attachmentId } })).status,
    ).toBe(404);
  });

  it('lets an operator find a person, suspend and restore them, change their plan with a reason, and read and export the audit log', async () => {
    const operator = await register('efua');
    // The role is a flag on the account (or KASA_OPERATOR_EMAILS), read from the database on every operator request.
    await authDb.collection('users').updateOne({ _id: new Types.ObjectId(operator.id) }, { $set: { operator: true } });
    const person = await register('yaw');
    const as = { token: operator.token };

    const found = await exercise('GET /api/admin/people', 200, { ...as, query: { q: person.email } });
    expect(found.body.people.map((p: { id: string }) => p.id)).toEqual([person.id]);
    const read = await exercise('GET /api/admin/people/{id}', 200, { ...as, params: { id: person.id } });
    expect(read.body.person).toMatchObject({ id: person.id, tier: 'free', suspended: false });

    await exercise('POST /api/admin/people/{id}/suspend', 200, {
      ...as,
      params: { id: person.id },
      body: { reason: 'Reported for spam; suspended while it is looked into' },
    });
    await eventually(async () => (await request('GET /api/auth/me', { token: person.token })).status === 401, {
      timeoutMs: 3_000,
      what: 'the suspended person is refused',
    });
    await exercise('POST /api/admin/people/{id}/restore', 200, {
      ...as,
      params: { id: person.id },
      body: { reason: 'Looked into: not spam' },
    });
    const changed = await exercise('POST /api/admin/people/{id}/plan', 200, {
      ...as,
      params: { id: person.id },
      body: { tier: 'pro', reason: 'A year of Pro for a community partner' },
    });
    expect(changed.body).toMatchObject({ from: 'free', to: 'pro' });

    // The audit log is written from events, after the answers: it shows all three once they have arrived.
    const actions = async () =>
      (
        (await (await request('GET /api/admin/audit', { ...as, query: { target: person.id } })).json()) as {
          entries: Array<{ action: string }>;
        }
      ).entries.map((e) => e.action);
    const wanted = ['user.suspended', 'user.restored', 'plan.changed'];
    await eventually(
      async () => {
        const seen = await actions();
        return wanted.every((a) => seen.includes(a));
      },
      { what: 'the suspension, the restoration and the plan change in the audit log' },
    );
    const audit = await exercise('GET /api/admin/audit', 200, { ...as, query: { target: person.id } });
    const byOperator = (e: { action: string }) =>
      ['user.suspended', 'user.restored', 'plan.changed'].includes(e.action);
    expect(audit.body.entries.filter(byOperator).map((e: { actorId: string }) => e.actorId)).toEqual([
      operator.id,
      operator.id,
      operator.id,
    ]);
    const csv = await exercise('GET /api/admin/audit.csv', 200, { ...as, query: { target: person.id } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toContain('user.suspended');
  });

  it('lets an operator connect an AI provider in the browser, test, order, change and remove it, and find Ollama', async () => {
    const operator = await register('abena');
    await authDb.collection('users').updateOne({ _id: new Types.ObjectId(operator.id) }, { $set: { operator: true } });
    const as = { token: operator.token };
    const fake = await new FakeOpenAI().start();
    try {
      fake.mode = { kind: 'ok', text: 'OK' };
      const settings = { kind: 'openai-compatible', baseURL: fake.baseURL, model: 'fake-model', apiKey: 'sk-doc-1234' };
      const tested = await exercise('POST /api/admin/provider-tests', 200, { ...as, body: settings });
      expect(tested.body).toMatchObject({ ok: true, sample: 'OK' });
      const added = await exercise('POST /api/admin/providers', 201, {
        ...as,
        body: { name: 'documented', ...settings },
      });
      expect(added.body).toMatchObject({ name: 'documented', key: { set: true, hint: '…1234' } });
      const listed = await exercise('GET /api/admin/providers', 200, as);
      expect(listed.text).not.toContain('sk-doc-1234');
      await exercise('PATCH /api/admin/providers/{name}', 200, {
        ...as,
        params: { name: 'documented' },
        body: { model: 'fake-model-2' },
      });
      const names = (listed.body.providers as { name: string }[]).map((p) => p.name);
      await exercise('PUT /api/admin/provider-order', 200, { ...as, body: { names: [...names].reverse() } });
      await exercise('GET /api/admin/provider-discovery', 200, as);
      // The connected provider has embeddings too (an OpenAI-compatible server: the model is named).
      const embedded = await exercise('POST /v1/embeddings', 200, {
        ...as,
        body: { model: 'fake-embed', input: ['Akwaaba', 'Medaase'] },
      });
      expect(embedded.body.data).toHaveLength(2);
      await exercise('DELETE /api/admin/providers/{name}', 204, { ...as, params: { name: 'documented' } });
    } finally {
      await fake.stop();
    }
  });

  it('lets an operator download the local model with its progress, and stop a download', async () => {
    const operator = await register('kojo');
    await authDb.collection('users').updateOne({ _id: new Types.ObjectId(operator.id) }, { $set: { operator: true } });
    const as = { token: operator.token };
    const model = tinyGguf();
    // A model server at the edge: the tiny file, and one that never finishes (to be stopped).
    const server = http.createServer((req, res) => {
      if (req.url === '/tiny.gguf') res.writeHead(200, { 'content-length': model.length }).end(model);
      else if (req.url === '/endless.gguf') {
        res.writeHead(200, { 'content-length': model.length * 1000 });
        res.write(model.subarray(0, 1024));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const before = await exercise('GET /api/admin/local-model', 200, as);
      expect(before.body.state).toBe('absent');
      await exercise('POST /api/admin/local-model', 202, { ...as, body: { url: `${base}/tiny.gguf` } });
      await eventually(async () => (await (await request('GET /api/admin/local-model', as)).json()).state === 'ready', {
        what: 'the tiny model downloaded',
      });
      const ready = await exercise('GET /api/admin/local-model', 200, as);
      expect(ready.body).toMatchObject({ state: 'ready', file: 'tiny.gguf', bytes: model.length });
      await exercise('POST /api/admin/local-model', 202, { ...as, body: { url: `${base}/endless.gguf` } });
      await exercise('DELETE /api/admin/local-model/download', 204, as);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('delivers signed webhooks: an endpoint added, tested, its log read, a delivery replayed, changed and removed', async () => {
    const received: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kasa`;
    try {
      const as = { token: pro.token };
      const empty = await exercise('GET /api/developer/webhooks', 200, as);
      expect(empty.body.endpoints).toEqual([]);
      const created = await exercise('POST /api/developer/webhooks', 201, {
        ...as,
        body: { url, description: 'Documented', events: ['video.completed', 'plan.changed'] },
      });
      expect(created.body.secret).toMatch(/^whsec_/);
      const id = created.body.endpoint.id as string;
      const tested = await exercise('POST /api/developer/webhooks/{id}/test', 202, { ...as, params: { id } });
      await eventually(async () => received.length === 1, { timeoutMs: 30_000 });
      const log = await exercise('GET /api/developer/webhooks/{id}/deliveries', 200, {
        ...as,
        params: { id },
        query: { limit: '10' },
      });
      expect(log.body.deliveries[0].id).toBe(tested.body.delivery.id);
      await exercise('POST /api/developer/webhooks/{id}/deliveries/{deliveryId}/replay', 202, {
        ...as,
        params: { id, deliveryId: tested.body.delivery.id },
      });
      await eventually(async () => received.length === 2, { timeoutMs: 30_000 });
      expect(received[1]).toBe(received[0]);
      const rotated = await exercise('POST /api/developer/webhooks/{id}/secret', 200, { ...as, params: { id } });
      expect(rotated.body.secret).not.toBe(created.body.secret);
      const changed = await exercise('PATCH /api/developer/webhooks/{id}', 200, {
        ...as,
        params: { id },
        body: { enabled: false },
      });
      expect(changed.body.endpoint.enabled).toBe(false);
      await exercise('DELETE /api/developer/webhooks/{id}', 204, { ...as, params: { id } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('shows an operator the platform’s health and the month’s usage', async () => {
    const operator = await register('akosua');
    await authDb.collection('users').updateOne({ _id: new Types.ObjectId(operator.id) }, { $set: { operator: true } });
    const health = await exercise('GET /api/admin/health', 200, { token: operator.token });
    expect(health.body.services.length).toBeGreaterThan(0);
    const month = new Date().toISOString().slice(0, 7);
    await exercise('GET /api/admin/usage', 200, { token: operator.token, query: { month } });
  });

  it('has exercised every operation of the document with valid input', () => {
    const missing = [...documented.keys()].filter((key) => !exercised.has(key)).sort();
    expect(missing).toEqual([]);
    // The document the gateway serves and the contracts' tables describe the same operations.
    expect([...documented.keys()].sort()).toEqual([...schemas.keys()].sort());
  });
});
