import request from 'supertest';
import { FakeOpenAI, TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('embeddings');
const first = new FakeOpenAI();
const second = new FakeOpenAI();

beforeAll(async () => {
  await Promise.all([env.start(), first.start(), second.start()]);
});
afterAll(async () => {
  await Promise.all([first.stop(), second.stop()]);
  await env.stop();
});
beforeEach(() => {
  first.embeddingStatus = undefined;
  first.embeddingRequests.length = 0;
  second.embeddingRequests.length = 0;
});

const chainEnv = () => ({
  CHAT_PROVIDERS: 'first,second',
  FIRST_BASE_URL: first.baseURL,
  FIRST_MODEL: 'chat-1',
  FIRST_EMBEDDING_MODEL: 'embed-1',
  SECOND_BASE_URL: second.baseURL,
  SECOND_MODEL: 'chat-2',
  SECOND_EMBEDDING_MODEL: 'embed-2',
});

describe('POST /v1/embeddings', () => {
  it('embeds with the first provider that has embeddings, in order, as floats or base64', async () => {
    const { app } = await env.app(chainEnv());
    const res = await request(app)
      .post('/v1/embeddings')
      .set(userHeaders('free'))
      .send({ model: 'kasa-embedding', input: ['Akwaaba', 'Medaase'] });
    expect(res.status).toBe(200);
    expect(res.get('x-kasa-provider')).toBe('first');
    expect(res.body).toMatchObject({ object: 'list', model: 'embed-1', usage: { prompt_tokens: 2, total_tokens: 2 } });
    expect(res.body.data.map((d: { index: number }) => d.index)).toEqual([0, 1]);
    const floats = res.body.data[0].embedding as number[];
    expect(floats).toHaveLength(8);

    const packed = await request(app)
      .post('/v1/embeddings')
      .set(userHeaders('free'))
      .send({ model: 'kasa-embedding', input: 'Akwaaba', encoding_format: 'base64' });
    const bytes = Buffer.from(packed.body.data[0].embedding as string, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    decoded.forEach((value, i) => expect(value).toBeCloseTo(floats[i]!, 6));
    expect(second.embeddingRequests).toHaveLength(0);
  });

  it('falls over to the next provider when one fails, and passes a named model on', async () => {
    const { app } = await env.app(chainEnv());
    first.embeddingStatus = 500;
    const res = await request(app)
      .post('/v1/embeddings')
      .set(userHeaders('free'))
      .send({ model: 'kasa-embedding', input: 'Akwaaba' });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('embed-2');
    expect(first.embeddingRequests).toHaveLength(1);

    first.embeddingStatus = undefined;
    const named = await request(app)
      .post('/v1/embeddings')
      .set(userHeaders('free'))
      .send({ model: 'text-embedding-3-small', input: 'Akwaaba', dimensions: 4 });
    expect(named.status).toBe(200);
    expect(named.body.model).toBe('text-embedding-3-small');
    expect(first.embeddingRequests.at(-1)).toMatchObject({ model: 'text-embedding-3-small' });
  });

  it('answers 503 in OpenAI’s shape when every provider fails, and 400 when none has embeddings', async () => {
    const { app } = await env.app({ ...chainEnv(), CHAT_PROVIDERS: 'first' });
    first.embeddingStatus = 503;
    const failed = await request(app)
      .post('/v1/embeddings')
      .set(userHeaders('free'))
      .send({ model: 'kasa-embedding', input: 'Akwaaba' });
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ message: expect.stringMatching(/No AI provider could embed/) });

    const { app: offline } = await env.app({ CHAT_PROVIDERS: '' });
    const none = await request(offline)
      .post('/v1/embeddings')
      .set(userHeaders('free'))
      .send({ model: 'kasa-embedding', input: 'Akwaaba' });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ param: 'model', code: 'unsupported_value' });
  });

  it('refuses what it cannot take before calling anyone', async () => {
    const { app } = await env.app(chainEnv());
    for (const body of [
      { model: 'kasa-embedding', input: [1, 2, 3] },
      { model: 'kasa-embedding', input: [] },
      { model: 'kasa-embedding', input: '' },
      { model: 'kasa-embedding', input: 'x', encoding_format: 'int8' },
      { model: 'kasa-embedding', input: 'x', extra: true },
      { input: 'x' },
    ]) {
      const res = await request(app).post('/v1/embeddings').set(userHeaders('free')).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toEqual(expect.any(String));
    }
    expect(first.embeddingRequests).toHaveLength(0);
    expect((await request(app).post('/v1/embeddings').send({ model: 'kasa-embedding', input: 'x' })).status).toBe(401);
  });
});
