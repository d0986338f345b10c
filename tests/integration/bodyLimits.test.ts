import {
  BODY_LIMITS,
  OPENAI_REQUEST_LIMITS,
  type AuthResponse,
  type OpenAIChatCompletionRequest,
} from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Request body limits through the built gateway and services: each route's limit is the one its service applies
 * (BODY_LIMITS in @kasa/contracts), so a body the service would take is never refused by the gateway, and a 413 from
 * either side is the same `payload_too_large` JSON naming the limit (in OpenAI's shape too on /v1).
 */
let platform: RunningPlatform;
let free: string;
let pro: string;

const MB = 1024 * 1024;
const url = (path: string) => `${platform.baseUrl}${path}`;

beforeAll(async () => {
  platform = await startPlatform();
  free = await signUp();
  // Speech to text is a Pro feature: the built-in payment provider completes the checkout at once.
  const checkout = await fetch(url('/api/billing/checkout'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await signUp()}` },
    body: JSON.stringify({ planId: 'pro' }),
  });
  expect(checkout.status).toBe(201);
  pro = ((await checkout.json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

async function signUp(): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(url('/api/auth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `body_${id}`, email: `body.${id}@example.com`, password: 'medaase-42' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as AuthResponse).token;
}

/** How many requests the voice service answered on its transcription route (its own Prometheus counter). */
async function transcriptionRequestsSeenByVoice(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${platform.ports.voice}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{') && line.includes('route="/api/voice/transcribe"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** A WAV file of silence (16 kHz, 16-bit mono) of `size` bytes in all. */
function silentWav(size: number): Buffer {
  const wav = Buffer.alloc(size);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(size - 8, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(16_000, 24);
  wav.writeUInt32LE(32_000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(size - 44, 40);
  return wav;
}

function recordingForm(size: number): FormData {
  const form = new FormData();
  form.append('audio', new Blob([new Uint8Array(silentWav(size))], { type: 'audio/wav' }), 'recording.wav');
  form.append('language', 'en');
  return form;
}

async function transcribe(form: FormData) {
  const res = await fetch(url('/api/voice/transcribe'), {
    method: 'POST',
    headers: { authorization: `Bearer ${pro}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A conversation of `messages` turns of `chars` characters each, ending with the user's. */
function conversation(messages: number, chars: number): OpenAIChatCompletionRequest {
  return {
    model: 'kasa',
    messages: Array.from({ length: messages }, (_, i) => ({
      role: (messages - 1 - i) % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `${i}: ${'Akwaaba, wo ho te sen? '.repeat(chars / 23 + 1)}`.slice(0, chars),
    })),
  };
}

async function complete(body: BodyInit, headers: Record<string, string> = {}) {
  const res = await fetch(url('/v1/chat/completions'), {
    method: 'POST',
    headers: { authorization: `Bearer ${free}`, 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('POST /api/voice/transcribe', () => {
  it('lets a 3 MB recording through to the voice service, which answers it', async () => {
    const before = await transcriptionRequestsSeenByVoice();
    const answer = await transcribe(recordingForm(3 * MB));
    // Whatever speech to text can do on this machine (no recognizer: 503), but never the gateway's 413.
    expect(answer.status).not.toBe(413);
    expect(answer.body.code).not.toBe('payload_too_large');
    expect(await transcriptionRequestsSeenByVoice()).toBe(before + 1);
  });

  it('refuses an 11 MB recording at the gateway with 413 naming the limit, without asking the voice service', async () => {
    const before = await transcriptionRequestsSeenByVoice();
    const answer = await transcribe(recordingForm(11 * MB));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 10 MB.',
      requestId: expect.any(String),
    });
    expect(await transcriptionRequestsSeenByVoice()).toBe(before);
  });
});

describe('POST /v1/chat/completions', () => {
  it('answers a long conversation (~300 KB) with the offline provider', async () => {
    const body = JSON.stringify(conversation(10, 30_000));
    expect(body.length).toBeGreaterThan(300_000);
    const answer = await complete(body);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: expect.any(String) } }],
    });
  });

  it('refuses a body over 1 MB at the gateway with 413 in OpenAI’s error shape', async () => {
    const body = JSON.stringify(conversation(20, 55_000));
    expect(body.length).toBeGreaterThan(BODY_LIMITS.openAI);
    const answer = await complete(body);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 1 MB.',
      error: {
        message: 'The request body is too large: the limit is 1 MB.',
        type: 'invalid_request_error',
        code: 'payload_too_large',
        param: null,
      },
    });
  });

  it('answers the same 413 from the chat service when a compressed body unpacks to over 1 MB', async () => {
    // Small on the wire (the gateway counts what it forwards), over the limit once the chat service inflates it.
    const body = new Uint8Array(gzipSync(JSON.stringify(conversation(20, 55_000))));
    expect(body.length).toBeLessThan(BODY_LIMITS.openAI);
    const answer = await complete(body, { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 1 MB.',
      error: { type: 'invalid_request_error', code: 'payload_too_large' },
    });
  });

  it('refuses more conversation than the schema allows with a 400 saying how much fits', async () => {
    const { messageChars, totalChars } = OPENAI_REQUEST_LIMITS;
    const request = conversation(totalChars / messageChars + 1, messageChars);
    const answer = await complete(JSON.stringify(request));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { type: 'invalid_request_error', param: 'messages', message: expect.stringContaining('at most 320,000') },
    });
  });
});

describe('the chat routes', () => {
  const createSession = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(url('/api/chat/sessions'), {
      method: 'POST',
      headers: { authorization: `Bearer ${free}`, 'content-type': 'application/json', ...headers },
      body,
    });

  it('refuses a JSON body over the chat service’s 64 KB with 413 JSON from the gateway', async () => {
    const res = await createSession(JSON.stringify({ personaId: 'kasa', title: 'x'.repeat(BODY_LIMITS.chat) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 64 KB.',
      requestId: expect.any(String),
    });
  });

  it('answers the same 413 from the chat service itself', async () => {
    const body = new Uint8Array(gzipSync(JSON.stringify({ personaId: 'kasa', title: 'x'.repeat(BODY_LIMITS.chat) })));
    const res = await createSession(body, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 64 KB.',
      requestId: expect.any(String),
    });
  });

  it('still takes an ordinary body', async () => {
    const res = await createSession(JSON.stringify({ personaId: 'kasa', title: 'Limits' }));
    expect(res.status).toBe(201);
  });
});
