import express from 'express';
import request from 'supertest';
import { errorHandler } from './errorHandler';

function appThrowing(err: unknown) {
  const app = express();
  app.get('/', () => {
    throw err;
  });
  app.use(errorHandler());
  return app;
}

describe('errorHandler', () => {
  it('answers 503 with Retry-After when the database cannot be reached', async () => {
    const res = await request(
      appThrowing(
        Object.assign(new Error('Server selection timed out after 3000 ms'), { name: 'MongoServerSelectionError' }),
      ),
    ).get('/');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      message: 'Our database is not answering right now. Please try again in a few seconds.',
      code: 'upstream_unavailable',
      requestId: expect.any(String),
    });
  });

  it('answers 503 with Retry-After when a query ran over its time limit', async () => {
    const overLimit = Object.assign(new Error('operation exceeded time limit'), {
      name: 'MongoServerError',
      code: 50,
      codeName: 'MaxTimeMSExpired',
    });
    const res = await request(appThrowing(overLimit)).get('/');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ code: 'upstream_unavailable' });
    expect(res.body.message).toContain('try again');
  });

  it('keeps other unexpected errors a 500 that describes nothing', async () => {
    const res = await request(appThrowing(new Error('secret detail'))).get('/');
    expect(res.status).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('secret detail');
  });
});

describe('errorHandler with bodies over the limit', () => {
  function appParsing(limit: number) {
    const app = express();
    app.use(express.json({ limit }));
    app.post(['/api/things', '/v1/things'], (_req, res) => {
      res.status(201).json({});
    });
    app.use(errorHandler());
    return app;
  }
  const big = JSON.stringify({ text: 'x'.repeat(70 * 1024) });

  it('answers 413 payload_too_large naming the limit', async () => {
    const res = await request(appParsing(64 * 1024))
      .post('/api/things')
      .set('content-type', 'application/json')
      .send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      message: 'The request body is too large: the limit is 64 KB.',
      code: 'payload_too_large',
      requestId: expect.any(String),
    });
  });

  it('answers in OpenAI’s error shape too on /v1 paths', async () => {
    const res = await request(appParsing(64 * 1024))
      .post('/v1/things')
      .set('content-type', 'application/json')
      .send(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'payload_too_large',
      error: {
        message: 'The request body is too large: the limit is 64 KB.',
        type: 'invalid_request_error',
        code: 'payload_too_large',
        param: null,
      },
    });
  });
});
