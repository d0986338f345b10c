import { ATTACHMENT_PROCESSING_LIMITS, ErrorCode } from '@kasa/contracts';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually, makePdf, newAccount, unique } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import { makeDocxBomb, makeManyPagePdf } from '../support/abusiveFiles';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * One person's abuse stays theirs (ARCHITECTURE.md, "Isolation and healing"), through the built gateway and
 * services: costly files are refused while they are read and nothing is kept; the costly routes (replies on /v1,
 * synthesis, sign-in checks) hold a per-person limit and answer the excess with 429 and Retry-After; and another
 * person's calls are answered meanwhile. Behaviour only: how fast anything is belongs to `npm run bench -- isolation`.
 */

/** Replies one person may have being written at once (CHAT_MAX_CONCURRENT_REPLIES, its default). */
const REPLY_LIMIT = 10;
/** Syntheses one person may have under way at once (VOICE_SYNTHESIS_MAX_CONCURRENT, its default). */
const SYNTHESIS_LIMIT = 2;
/** Pages a PDF may have (CHAT_PDF_MAX_PAGES): lower than the default 1,000, so that the test's PDF stays small. */
const PDF_PAGES = 100;
/** Wrong passwords of one account checked before the rest wait (the auth service's sign-in throttle). */
const SIGN_IN_CHECKS = 5;
/** What marks a completion the fake provider streams slowly: it stays in flight while the others arrive. */
const SLOW = 'Answer slowly, please.';

const CHAT_DB_NAME = `kasa_chat_isolation_${unique()}`;

let platform: RunningPlatform;
let provider: FakeOpenAI;
let chatDb: Connection;

interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  provider.mode = {
    kind: 'choose',
    // 50 words 100 ms apart (about 5 s: the first ones are still running when the last of the flood arrive, even on a
    // busy machine) for the flood, an immediate short answer for everyone else.
    choose: (body) =>
      JSON.stringify(body.messages.at(-1)?.content ?? '').includes(SLOW)
        ? { kind: 'ok', text: 'word '.repeat(50), delayMs: 100 }
        : { kind: 'ok', text: 'Akwaaba! How can I help?' },
  };
  platform = await startPlatform({
    ...fakeProviderEnv(provider),
    CHAT_DB_NAME,
    CHAT_MAX_CONCURRENT_REPLIES: String(REPLY_LIMIT),
    VOICE_SYNTHESIS_MAX_CONCURRENT: String(SYNTHESIS_LIMIT),
    CHAT_PDF_MAX_PAGES: String(PDF_PAGES),
  });
  chatDb = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: CHAT_DB_NAME,
    logger: createLogger({ service: 'isolation-it', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
  await chatDb?.dropDatabase().catch(() => undefined);
  await chatDb?.close();
});

async function call(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.body ? { 'content-type': 'application/octet-stream' } : {}),
      ...options.headers,
    },
    body:
      options.json !== undefined
        ? JSON.stringify(options.json)
        : options.body
          ? new Uint8Array(options.body)
          : undefined,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** A new person, Free or (through the built-in checkout) Pro. */
async function person(plan: 'free' | 'pro' = 'free'): Promise<Person> {
  const account = newAccount('iso');
  const registered = await call('POST', '/api/auth/register', { json: account });
  expect(registered.status).toBe(201);
  let token = registered.body.token as string;
  if (plan === 'pro') {
    const checkout = await call('POST', '/api/billing/checkout', { token, json: { planId: 'pro' } });
    expect(checkout.status).toBe(201);
    token = checkout.body.token as string;
  }
  return { id: registered.body.user.id as string, email: account.email, password: account.password, token };
}

/** Counts of each status, e.g. `{ 200: 10, 429: 35 }`. */
const countStatuses = (answers: Array<{ status: number }>): Record<number, number> =>
  answers.reduce<Record<number, number>>(
    (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );

/** A refusal for being over a per-person limit: 429, Kasa's code, and a Retry-After of whole seconds. */
function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ code: ErrorCode.rateLimited, message: expect.any(String) });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Calls GET /api/personas as `who` until `done` settles; resolves with every answer's status. */
async function personasUntil(who: Person, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const statuses: number[] = [];
  do statuses.push((await call('GET', '/api/personas', { token: who.token })).status);
  while (!finished);
  return statuses;
}

/** What the chat database keeps of one person's attachments: documents, stored files and the allowance. */
async function storedAttachmentsOf(ownerId: string) {
  const db = chatDb.db!;
  const usage = await db.collection('attachment_usage').findOne({ _id: ownerId as never });
  return {
    documents: await db.collection('attachments').countDocuments({ ownerId }),
    files: await db.collection('attachments.files').countDocuments({ 'metadata.ownerId': ownerId }),
    allowance: { count: usage?.count ?? 0, bytes: usage?.bytes ?? 0 },
  };
}

describe('a Pro person uploading files built to be costly to read', () => {
  it('is refused with 413/422 naming the limit, keeps nothing, and another person is answered meanwhile', async () => {
    const [heavy, other] = await Promise.all([person('pro'), person('free')]);
    // One ordinary document first: the uploads work, and the allowance has something to stay at.
    const ordinary = await call('POST', '/api/chat/attachments?name=notes.pdf', {
      token: heavy.token,
      body: makePdf(['Akwaaba', 'Medaase']),
    });
    expect(ordinary.status).toBe(201);
    const before = await storedAttachmentsOf(heavy.id);
    expect(before).toMatchObject({ documents: 1, files: 1, allowance: { count: 1 } });

    // 4 MB of text that packs into about 4 KB (the archive limits are the defaults), and a PDF with more pages than
    // a PDF may have.
    const bomb = makeDocxBomb(4 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(32 * 1024);
    const pages = PDF_PAGES + 50;
    const uploads = Promise.all([
      call('POST', '/api/chat/attachments?name=report.docx', { token: heavy.token, body: bomb }),
      call('POST', '/api/chat/attachments?name=book.pdf', { token: heavy.token, body: makeManyPagePdf(pages) }),
    ]);
    const [personas, [docx, pdf]] = await Promise.all([personasUntil(other, uploads), uploads]);

    expect(personas.length).toBeGreaterThan(0);
    expect(personas.every((status) => status === 200)).toBe(true);
    for (const refused of [docx, pdf]) {
      expect([413, 422]).toContain(refused.status);
      expect(refused.body).toMatchObject({
        code: expect.stringMatching(new RegExp(`^(${ErrorCode.fileTooComplex}|${ErrorCode.payloadTooLarge})$`)),
        message: expect.any(String),
        details: { limit: expect.any(String), max: expect.any(Number) },
      });
    }
    // The PDF's answer names its pages and the limit; the Word document's one of the archive's limits and its value.
    expect(pdf.body.details).toMatchObject({ limit: 'pdfPages', max: PDF_PAGES });
    expect(pdf.body.message).toContain(`at most ${PDF_PAGES} pages`);
    const archiveLimits = ['docxCompressionRatio', 'docxUnpackedBytes', 'docxEntries'] as const;
    expect(archiveLimits).toContain(docx.body.details.limit);
    const docxLimit = docx.body.details.limit as (typeof archiveLimits)[number];
    expect(docx.body.details.max).toBe(ATTACHMENT_PROCESSING_LIMITS[docxLimit]);
    expect(await storedAttachmentsOf(heavy.id)).toEqual(before);
  });
});

describe('45 streamed /v1/chat/completions at once from one Free person', () => {
  it('runs exactly the 10 the limit allows and refuses the rest with 429 in OpenAI’s shape', async () => {
    const free = await person('free');
    const answers = await Promise.all(
      Array.from({ length: 45 }, () =>
        call('POST', '/v1/chat/completions', {
          token: free.token,
          json: { model: 'kasa', stream: true, messages: [{ role: 'user', content: SLOW }] },
          headers: { accept: 'text/event-stream' },
        }),
      ),
    );

    expect(countStatuses(answers)).toEqual({ 200: REPLY_LIMIT, 429: 45 - REPLY_LIMIT });
    for (const ran of answers.filter((a) => a.status === 200)) expect(ran.text).toContain('data: [DONE]');
    for (const refused of answers.filter((a) => a.status === 429)) {
      expectRateLimited(refused);
      expect(refused.body.error).toMatchObject({ message: expect.any(String), type: 'rate_limit_error' });
    }
    // The slots are given back once the replies are stored: then the next one runs.
    await eventually(
      async () =>
        (
          await call('POST', '/v1/chat/completions', {
            token: free.token,
            json: { model: 'kasa', messages: [{ role: 'user', content: 'Hello' }] },
          })
        ).status === 200,
      { what: 'a completion after the flood answers 200', intervalMs: 200 },
    );
  });
});

describe('ten long syntheses at once from one Pro person', () => {
  it('runs at most the per-person limit, refuses the rest with 429, and another person’s synthesis succeeds', async () => {
    const [heavy, other] = await Promise.all([person('pro'), person('pro')]);
    // About 2,000 characters (two minutes of speech): each takes seconds, so the first are still running when the
    // last arrive.
    const long = 'Kasa reads this long text aloud, sentence after sentence, for as long as it takes. '.repeat(24);
    const flood = Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', '/api/voice/synthesize', { token: heavy.token, json: { text: long, language: 'en' } }),
      ),
    );
    const short = call('POST', '/api/voice/synthesize', {
      token: other.token,
      json: { text: `Akwaaba ${unique()}.`, language: 'en' },
    });
    const [answers, mine] = await Promise.all([flood, short]);

    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ audioUrl: expect.any(String), duration: expect.any(Number) });
    const counts = countStatuses(answers);
    expect(Object.keys(counts).sort()).toEqual(['201', '429']);
    expect(counts[201]).toBeLessThanOrEqual(SYNTHESIS_LIMIT);
    for (const refused of answers.filter((a) => a.status === 429)) expectRateLimited(refused);
  });
});

describe('20 wrong passwords at once for one account', () => {
  it('checks at most 5 of them (401) and refuses the rest with 429', async () => {
    const target = await person('free');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/api/auth/login', { json: { email: target.email, password: `not-the-password-${i}` } }),
      ),
    );

    const counts = countStatuses(answers);
    expect(Object.keys(counts).sort()).toEqual(['401', '429']);
    expect(counts[401]).toBeLessThanOrEqual(SIGN_IN_CHECKS);
    for (const refused of answers.filter((a) => a.status === 429)) expectRateLimited(refused);
  });
});
