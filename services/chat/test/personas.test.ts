import type { Express } from 'express';
import request from 'supertest';
import { FakeOpenAI, TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('personas');
const fake = new FakeOpenAI();
let app: Express;

beforeAll(async () => {
  await Promise.all([env.start(), fake.start()]);
  ({ app } = await env.app({ CHAT_PROVIDERS: 'fake', FAKE_BASE_URL: fake.baseURL, FAKE_MODEL: 'fake-1' }));
});
afterAll(async () => {
  await fake.stop();
  await env.stop();
});

const coach = {
  name: 'Coach',
  expertise: 'Football tactics',
  systemPrompt: 'You are Coach, a football tactician.',
  color: '#123abc',
};
const ids = (res: request.Response) => (res.body as { id: string }[]).map((p) => p.id);

describe('custom personas (Enterprise)', () => {
  it('lets an Enterprise user create, list, use, edit and delete their own persona', async () => {
    const owner = userHeaders('enterprise');
    const created = await request(app).post('/api/personas').set(owner).send(coach);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), ...coach });

    const mine = await request(app).get('/api/personas').set(owner);
    expect(ids(mine)).toEqual(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta', created.body.id]);
    // Nobody else sees it, and the anonymous list is unchanged.
    expect(ids(await request(app).get('/api/personas').set(userHeaders('enterprise')))).toHaveLength(6);
    expect(ids(await request(app).get('/api/personas'))).toHaveLength(6);

    // A session with it sends its system prompt to the provider.
    const session = await request(app)
      .post('/api/chat/sessions')
      .set(owner)
      .send({ personaId: created.body.id, title: 'Tactics' });
    expect(session.status).toBe(201);
    fake.mode = { kind: 'ok', text: 'Press high.' };
    const reply = await request(app)
      .post(`/api/chat/sessions/${session.body.id}/messages`)
      .set(owner)
      .send({ role: 'user', content: 'How do we beat a low block?', type: 'text' });
    expect(reply.body.content).toBe('Press high.');
    // The persona's own prompt leads the system message (the reply language detected from the message may follow).
    const system = fake.requests[fake.requests.length - 1]!.body.messages[0]!;
    expect(system.role).toBe('system');
    expect(String(system.content).startsWith(coach.systemPrompt)).toBe(true);
    // Another user cannot start a session with it.
    const stranger = await request(app)
      .post('/api/chat/sessions')
      .set(userHeaders('enterprise'))
      .send({ personaId: created.body.id, title: 'x' });
    expect(stranger.status).toBe(400);

    const renamed = await request(app).patch(`/api/personas/${created.body.id}`).set(owner).send({ name: 'Coach K' });
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'Coach K', expertise: coach.expertise });
    expect(
      (
        await request(app)
          .patch(`/api/personas/${created.body.id}`)
          .set(userHeaders('enterprise'))
          .send({ name: 'Mine' })
      ).status,
    ).toBe(404);
    expect((await request(app).delete(`/api/personas/${created.body.id}`).set(userHeaders('enterprise'))).status).toBe(
      404,
    );
    expect((await request(app).delete(`/api/personas/${created.body.id}`).set(owner)).status).toBe(204);
    expect(ids(await request(app).get('/api/personas').set(owner))).toHaveLength(6);
  });

  it.each(['free', 'pro'] as const)('refuses a %s user with a 403 that names the Enterprise plan', async (tier) => {
    const res = await request(app).post('/api/personas').set(userHeaders(tier)).send(coach);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/Enterprise plan/);
  });

  it('cannot change or delete Kasa\u2019s own personas', async () => {
    const owner = userHeaders('enterprise');
    expect((await request(app).patch('/api/personas/kasa').set(owner).send({ name: 'Mine' })).status).toBe(400);
    expect((await request(app).delete('/api/personas/kasa').set(owner)).status).toBe(400);
  });

  it.each([
    ['a missing systemPrompt', { name: 'A', expertise: 'B' }],
    ['a bad colour', { ...coach, color: 'blue' }],
    ['an unknown field', { ...coach, ownerId: 'someone' }],
  ])('answers 400 for %s', async (_label, body) => {
    const res = await request(app).post('/api/personas').set(userHeaders('enterprise')).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('answers 400 for an edit with nothing to change', async () => {
    const owner = userHeaders('enterprise');
    const created = await request(app).post('/api/personas').set(owner).send(coach);
    const res = await request(app).patch(`/api/personas/${created.body.id}`).set(owner).send({});
    expect(res.status).toBe(400);
  });
});
