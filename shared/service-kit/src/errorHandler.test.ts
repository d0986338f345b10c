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
