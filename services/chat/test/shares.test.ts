import type { Express } from 'express';
import request from 'supertest';
import { TestEnvironment, userHeaders } from './support';

const env = new TestEnvironment('shares');
let app: Express;

beforeAll(async () => {
  await env.start();
  ({ app } = await env.app());
});
afterAll(() => env.stop());

async function conversation(headers: Record<string, string>, questions: string[], personaId = 'massa') {
  const created = await request(app)
    .post('/api/chat/sessions')
    .set(headers)
    .send({ personaId, title: 'Market prices' });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  for (const content of questions) await ask(headers, id, content);
  return id;
}

async function ask(headers: Record<string, string>, sessionId: string, content: string) {
  const res = await request(app)
    .post(`/api/chat/sessions/${sessionId}/messages`)
    .set(headers)
    .send({ role: 'user', content, type: 'text' });
  expect(res.status).toBe(201);
}

const share = (headers: Record<string, string>, sessionId: string) =>
  request(app).post(`/api/chat/sessions/${sessionId}/share`).set(headers);
const read = (token: string) => request(app).get(`/api/chat/shared/${token}`);

describe('sharing a conversation as a read-only link', () => {
  it('gives a link that anyone can read without an account, with nothing about the owner', async () => {
    const owner = userHeaders('pro');
    const sessionId = await conversation(owner, ['How much does the Pro plan cost?']);

    const shared = await share(owner, sessionId);
    expect(shared.status).toBe(201);
    expect(shared.body).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      path: `/share/${shared.body.token}`,
      sessionId,
      messageCount: 2,
      sharedAt: expect.any(String),
    });

    const page = await read(shared.body.token);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatchObject({
      title: 'Market prices',
      persona: { id: 'massa', name: 'Massa' },
      truncated: false,
    });
    expect(page.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(page.body.messages[0].content).toBe('How much does the Pro plan cost?');
    expect(JSON.stringify(page.body)).not.toContain(owner['x-kasa-user-id']);
    expect(JSON.stringify(page.body)).not.toContain(owner['x-kasa-username']);
  });

  it('shows the conversation as it was when shared, and sharing again keeps the link and brings it up to date', async () => {
    const owner = userHeaders();
    const sessionId = await conversation(owner, ['What is Kasa?']);
    const first = await share(owner, sessionId);
    await ask(owner, sessionId, 'Which languages do you speak?');

    expect((await read(first.body.token)).body.messages).toHaveLength(2);

    const again = await share(owner, sessionId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ token: first.body.token, messageCount: 4 });
    const page = await read(first.body.token);
    expect(page.body.messages.map((m: { content: string }) => m.content)).toContain('Which languages do you speak?');
    expect((await request(app).get(`/api/chat/sessions/${sessionId}/share`).set(owner)).body).toEqual(again.body);
  });

  it('stops working for good when the owner stops sharing, and a new share is a new link', async () => {
    const owner = userHeaders();
    const sessionId = await conversation(owner, ['Hello']);
    const { token } = (await share(owner, sessionId)).body as { token: string };

    expect((await request(app).delete(`/api/chat/sessions/${sessionId}/share`).set(owner)).status).toBe(204);
    const gone = await read(token);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'not_found', message: expect.stringContaining('stopped sharing') });
    expect((await request(app).get(`/api/chat/sessions/${sessionId}/share`).set(owner)).status).toBe(404);
    // Stopping twice is not an error.
    expect((await request(app).delete(`/api/chat/sessions/${sessionId}/share`).set(owner)).status).toBe(204);

    const renewed = await share(owner, sessionId);
    expect(renewed.status).toBe(201);
    expect(renewed.body.token).not.toBe(token);
    expect((await read(token)).status).toBe(404);
  });

  it('goes with the conversation when it is deleted', async () => {
    const owner = userHeaders();
    const sessionId = await conversation(owner, ['Hello']);
    const { token } = (await share(owner, sessionId)).body as { token: string };
    expect((await request(app).delete(`/api/chat/sessions/${sessionId}`).set(owner)).status).toBe(204);
    expect((await read(token)).status).toBe(404);
    expect(await env.db.collection('shares').countDocuments({ _id: token as never })).toBe(0);
  });

  it("answers 404 for someone else's conversation, whatever they try", async () => {
    const owner = userHeaders();
    const stranger = userHeaders();
    const sessionId = await conversation(owner, ['Hello']);
    expect((await share(stranger, sessionId)).status).toBe(404);
    await share(owner, sessionId);
    expect((await request(app).get(`/api/chat/sessions/${sessionId}/share`).set(stranger)).status).toBe(404);
    expect((await request(app).delete(`/api/chat/sessions/${sessionId}/share`).set(stranger)).status).toBe(404);
    // The stranger's DELETE changed nothing: the owner's link still works.
    expect((await request(app).get(`/api/chat/sessions/${sessionId}/share`).set(owner)).status).toBe(200);
  });

  it('refuses to share an empty conversation, and needs the owner signed in', async () => {
    const owner = userHeaders();
    const sessionId = await conversation(owner, []);
    const empty = await share(owner, sessionId);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/no messages yet/);
    expect((await request(app).post(`/api/chat/sessions/${sessionId}/share`)).status).toBe(401);
  });

  it('answers the same 404 for a malformed or unknown token, never a 500', async () => {
    for (const token of ['nope', 'A'.repeat(22), '%00', 'x'.repeat(500)]) {
      const res = await read(token);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});
