import type { ProviderSettings } from '@kasa/ai-providers';
import { EventBus } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { BrowserProviders } from '../src/aiProviders/browserProviders';
import type { VoiceComponents } from '../src/voiceComponents';
import { heartbeatParts, voiceStatus } from '../src/voiceStatus';
import { FakeCloud, tone, wavFile, type FakeAnswer } from './fakeCloud';
import { AMQP_URL, logger, TestEnvironment, userHeaders } from './support';

/**
 * The chat service's `GET /internal/ai-providers`, answered exactly as its contract says (`{version, providers}`:
 * the enabled providers added in the browser, in chain order, keys opened) by a small server of this test. It is the
 * edge of the voice service's world here, as the fake OpenAI is; the path through the real chat service is covered
 * by the platform tests.
 */
class ChatProviderList {
  private answer = { version: 0, providers: [] as object[] };
  private server?: http.Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  serve(version: number, providers: object[]): void {
    this.answer = { version, providers };
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/internal/ai-providers') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(this.answer));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const env = new TestEnvironment('browser_providers');
const fake = new FakeCloud();
const chat = new ChatProviderList();
// The service's own bus hears `chat.providers.changed` on its broadcast queue; env.bus plays the chat service.
const voiceBus = new EventBus({ url: AMQP_URL, source: 'kasa/voice', logger });
let app: Express;
let voice: VoiceComponents;
let sync: BrowserProviders;

const COMPLETIONS = '/v1/chat/completions';
const TRANSCRIPTIONS = '/v1/audio/transcriptions';
const json = (body: unknown): FakeAnswer => ({
  kind: 'reply',
  contentType: 'application/json',
  body: JSON.stringify(body),
});
const completion = (content: string) =>
  json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
  });
const wav = wavFile(tone(16_000), 16_000);
const pro = userHeaders('pro');

/** A provider as chat lists it (ProviderSettings of @kasa/ai-providers). */
const provider = (fields: Pick<ProviderSettings, 'name' | 'kind'> & Partial<ProviderSettings>): ProviderSettings => ({
  apiKey: 'sk-browser-key',
  model: 'gpt-4o-mini',
  personaModels: {},
  extra: {},
  vision: false,
  ...fields,
});

const translate = (target: Express = app) =>
  request(target).post('/api/translate').set(pro).send({ text: 'Thank you very much.', from: 'en', to: 'tw' });
const transcribe = (target: Express = app) =>
  request(target)
    .post('/api/voice/transcribe')
    .set(pro)
    .attach('audio', wav, { filename: 'clip.wav', contentType: 'audio/wav' });
const status = async (target: Express = app) => (await request(target).get('/api/voice/status')).body;
const capabilities = async (code: string) => (await request(app).get(`/api/languages/${code}`)).body.capabilities;

/** Chat's list changes: a new version, and the event every replica hears. */
async function operatorChanges(version: number, providers: ProviderSettings[], change: 'added' | 'removed') {
  chat.serve(version, providers);
  await env.bus.publish('chat.providers.changed', {
    change,
    name: 'console-openai',
    kind: 'openai',
    order: providers.map((p) => p.name),
    actor: { userId: 'operator-1' },
    at: new Date().toISOString(),
  });
}

beforeAll(async () => {
  await Promise.all([env.start(), fake.start(), chat.start()]);
  // No provider in the variables: whatever translates or transcribes comes from the browser.
  ({ app, voice } = await env.app({
    CHAT_SERVICE_URL: chat.url,
    VOICE_CLOUD_TIMEOUT_MS: '3000',
    VOICE_TRANSLATE_TIMEOUT_MS: '3000',
    VOICE_BREAKER_MIN_REQUESTS: '1000',
  }));
  // As index.ts wires it; the backstop is left at a minute so that only the event can explain a quick change.
  sync = new BrowserProviders({
    chatServiceUrl: chat.url,
    logger,
    apply: (providers, version) => voice.useBrowserProviders(providers, version),
  }).listen(voiceBus);
  await voiceBus.start();
  sync.start();
  await eventually(() => sync.appliedVersion === 0, { what: 'the empty list read at start' });
});
afterAll(async () => {
  sync?.stop();
  await voiceBus.close();
  await Promise.all([env.stop(), fake.stop(), chat.stop()]);
});

describe('AI providers added in the browser', () => {
  const consoleOpenAi = () => provider({ name: 'console-openai', kind: 'openai', baseURL: `${fake.url}/v1` });
  // A model run inside the chat service: the AI SDK cannot build it, and it does not transcribe.
  const local: ProviderSettings = {
    name: 'on-device',
    kind: 'local',
    model: 'kasa-local.gguf',
    personaModels: {},
    extra: {},
    vision: false,
  };

  it('leave translation and transcription unavailable while there are none', async () => {
    expect(await status()).toMatchObject({
      transcription: { status: 'unavailable', providers: [] },
      translation: { status: 'degraded-offline', providers: [] },
    });
    expect((await translate()).status).toBe(503);
    expect((await transcribe()).status).toBe(503);
    expect(await capabilities('fr')).toMatchObject({ translate: false, listen: false });
  });

  it('translate and transcribe through an openai-kind provider once it is added, without a restart', async () => {
    await operatorChanges(1, [local, consoleOpenAi()], 'added');
    await eventually(async () => (await status()).translation.status === 'operational', {
      what: 'translation operational after the change was heard',
    });
    expect(await status()).toMatchObject({
      transcription: { status: 'operational', providers: [{ name: 'console-openai', circuit: 'closed' }] },
      translation: { status: 'operational', providers: [{ name: 'console-openai', circuit: 'closed' }] },
    });
    expect(heartbeatParts(voiceStatus(voice))).toEqual(
      expect.arrayContaining([
        { name: 'transcription', provider: 'console-openai', state: 'operational' },
        { name: 'translation', provider: 'console-openai', state: 'operational' },
      ]),
    );
    expect(await capabilities('fr')).toMatchObject({ translate: true, listen: true });

    fake.on(COMPLETIONS, completion('Medaase paa.'));
    const before = fake.requestsTo(COMPLETIONS).length;
    const translated = await translate();
    expect(translated.status).toBe(200);
    expect(translated.body).toEqual({ text: 'Medaase paa.', from: 'en', to: 'tw', provider: 'console-openai' });
    const [asked] = fake.requestsTo(COMPLETIONS).slice(before);
    expect(asked!.headers.authorization).toBe('Bearer sk-browser-key');
    expect(JSON.parse(asked!.body.toString()).model).toBe('gpt-4o-mini');

    fake.on(TRANSCRIPTIONS, json({ text: ' Good morning from Accra. ', language: 'english' }));
    const heardBefore = fake.requestsTo(TRANSCRIPTIONS).length;
    const heard = await transcribe();
    expect(heard.status).toBe(200);
    expect(heard.body).toEqual({ text: 'Good morning from Accra.', language: 'en', provider: 'console-openai' });
    const [sent] = fake.requestsTo(TRANSCRIPTIONS).slice(heardBefore);
    expect(sent!.headers.authorization).toBe('Bearer sk-browser-key');
    expect(sent!.body.toString('latin1')).toMatch(/name="model"\r\n\r\nwhisper-1\r\n/);
  });

  it('are unavailable again once the provider is removed', async () => {
    await operatorChanges(2, [local], 'removed');
    await eventually(async () => (await status()).transcription.status === 'unavailable', {
      what: 'transcription unavailable after the removal was heard',
    });
    expect((await status()).translation).toMatchObject({ status: 'degraded-offline', providers: [] });
    expect(await capabilities('fr')).toMatchObject({ translate: false, listen: false });
    const calls = fake.requestsTo(COMPLETIONS).length + fake.requestsTo(TRANSCRIPTIONS).length;
    expect((await translate()).status).toBe(503);
    expect((await transcribe()).status).toBe(503);
    expect(fake.requestsTo(COMPLETIONS).length + fake.requestsTo(TRANSCRIPTIONS).length).toBe(calls);
  });
});

describe('the providers of the variables and of the browser together', () => {
  let both: Express;
  let components: VoiceComponents;

  beforeAll(async () => {
    ({ app: both, voice: components } = await env.app({
      TRANSLATE_PROVIDERS: 'primary',
      PRIMARY_BASE_URL: `${fake.url}/primary/v1`,
      PRIMARY_MODEL: 'translator-1',
      OPENAI_API_KEY: 'sk-variable-key',
      OPENAI_BASE_URL: `${fake.url}/variable/v1`,
      VOICE_CLOUD_TIMEOUT_MS: '3000',
      VOICE_BREAKER_MIN_REQUESTS: '1000',
    }));
    components.useBrowserProviders(
      [
        // Named as a translator of the variables (that one is already there): it only transcribes.
        provider({ name: 'primary', kind: 'openai', baseURL: `${fake.url}/elsewhere/v1` }),
        // Named as the variables' transcriber, not as one of their translators: it translates only.
        provider({ name: 'openai', kind: 'openai', baseURL: `${fake.url}/v1` }),
        provider({ name: 'groq-browser', kind: 'groq', baseURL: `${fake.url}/groq/v1`, model: 'llama-3.1-8b-instant' }),
      ],
      5,
    );
  });

  it('come variables first, then the browser, skipping names already there', async () => {
    const names = (part: { providers: { name: string }[] }) => part.providers.map((p) => p.name);
    const now = await status(both);
    expect(names(now.translation)).toEqual(['primary', 'openai', 'groq-browser']);
    expect(names(now.transcription)).toEqual(['openai', 'primary', 'groq-browser']);
  });

  it("transcribe through a groq-kind provider with Groq's Whisper when the variables' provider fails", async () => {
    fake.on('/variable/v1/audio/transcriptions', { kind: 'status', status: 500 });
    fake.on('/elsewhere/v1/audio/transcriptions', { kind: 'status', status: 503 });
    fake.on('/groq/v1/audio/transcriptions', json({ text: 'Maakye', language: 'English' }));
    const before = fake.requestsTo('/groq/v1/audio/transcriptions').length;
    const res = await transcribe(both);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ text: 'Maakye', provider: 'groq-browser' });
    const [sent] = fake.requestsTo('/groq/v1/audio/transcriptions').slice(before);
    expect(sent!.headers.authorization).toBe('Bearer sk-browser-key');
    expect(sent!.body.toString('latin1')).toMatch(/name="model"\r\n\r\nwhisper-large-v3-turbo\r\n/);
  });
});
