import OpenAI from 'openai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeOpenAI, TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('openai');
const fake = new FakeOpenAI();
let server: http.Server;
let client: OpenAI;
let baseURL: string;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  const { app } = await env.app({
    CHAT_PROVIDERS: 'upstream',
    UPSTREAM_BASE_URL: fake.baseURL,
    UPSTREAM_MODEL: 'fake-up',
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // The gateway turns the API key into these headers; here the test plays the gateway.
  client = new OpenAI({ baseURL, apiKey: 'kasa_test_key', defaultHeaders: userHeaders('enterprise'), maxRetries: 0 });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fake.stop();
  await env.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = { kind: 'ok', text: 'Akwaaba! How can I help you today?' };
});

describe('the OpenAI-compatible API with the official openai library', () => {
  it('lists the personas as models', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models.map((m) => m.id)).toEqual(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: 'kasa' });
  });

  it('answers a chat completion with the persona as the model', async () => {
    const completion = await client.chat.completions.create({
      model: 'merla',
      messages: [
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'merla',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: 'Akwaaba! How can I help you today?' },
        },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    });
    const upstream = fake.requests[0]!.body.messages;
    expect(upstream[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(/^You are Merla[\s\S]*Answer in one sentence\.$/),
    });
    expect(upstream.slice(1)).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('streams a chat completion in OpenAI chunks, with usage when asked', async () => {
    const stream = await client.chat.completions.create({
      model: 'kasa',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
      expect(chunk.object).toBe('chat.completion.chunk');
    }
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Akwaaba! How can I help you today?');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 });
  });

  it('falls back to the offline knowledge base when the provider fails', async () => {
    fake.mode = { kind: 'status', status: 500 };
    const completion = await client.chat.completions.create({
      model: 'massa',
      messages: [{ role: 'user', content: 'How much does Pro cost?' }],
    });
    expect(completion.choices[0]!.message.content).toMatch(/offline mode[\s\S]*Pro costs \$29 per month/);
  });

  it('answers an unknown model with the error the library understands', async () => {
    await expect(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/The model 'gpt-4o' does not exist/) });
  });

  it('answers bad input with a 400 and no identity with a 401', async () => {
    await expect(client.chat.completions.create({ model: 'kasa', messages: [] })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    const anonymous = new OpenAI({ baseURL, apiKey: 'kasa_test_key', maxRetries: 0 });
    await expect(anonymous.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
