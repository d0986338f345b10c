import type { AssistantReply, AuthResponse, SessionWithMessages, StoredMessage } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import { usePlatformWithFakeProvider } from '../support/fakeProviderPlatform';

/**
 * Editing a message, regenerating an answer and choosing a version, through the real gateway, chat service, database
 * and broker (built output), with one fake AI provider at the edge whose requests show what each prompt held.
 */
const world = usePlatformWithFakeProvider();

const url = (path: string) => `${world.platform.baseUrl}${path}`;

async function signUp(): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const res = await fetch(url('/api/auth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `branch_${id}`, email: `branch.${id}@example.com`, password: 'nsa-kyekyere' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as AuthResponse).token;
}

interface Answer<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

async function call<T>(
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const res = await fetch(url(path), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, body: json as T };
}

/** Makes the fake provider answer `text`, runs `run`, and answers it with the prompt (no system line) it got. */
async function withAnswer<T>(text: string, run: () => Promise<T>): Promise<{ result: T; prompt: string[] }> {
  world.provider.mode = { kind: 'ok', text };
  const before = world.provider.requests.length;
  const result = await run();
  expect(world.provider.requests.length).toBe(before + 1);
  const prompt = world.provider.requests[before]!.body.messages.filter((m) => m.role !== 'system').map(
    (m) => `${m.role}: ${String(m.content)}`,
  );
  return { result, prompt };
}

async function newConversation(token: string): Promise<string> {
  const created = await call<{ id: string }>('POST', '/api/chat/sessions', token, { personaId: 'kasa', title: 'Tree' });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function send(token: string, sessionId: string, content: string, reply: string) {
  const { result, prompt } = await withAnswer(reply, () =>
    call<AssistantReply>('POST', `/api/chat/sessions/${sessionId}/messages`, token, { role: 'user', content }),
  );
  expect(result.status).toBe(201);
  return { reply: result.body, prompt };
}

const shown = async (token: string, sessionId: string) => {
  const page = await call<SessionWithMessages>('GET', `/api/chat/sessions/${sessionId}`, token);
  expect(page.status).toBe(200);
  return page.body.messages;
};
const contents = (messages: StoredMessage[]) => messages.map((m) => m.content);
const messagePath = (sessionId: string, messageId: string, action: string) =>
  `/api/chat/sessions/${sessionId}/messages/${messageId}/${action}`;

describe('a conversation that branches, through the gateway', () => {
  it('edits a message into a new branch whose prompt holds that branch only, and keeps the old one to go back to', async () => {
    const token = await signUp();
    const sessionId = await newConversation(token);
    await send(token, sessionId, 'What is fufu?', 'Pounded cassava and plantain.');
    const second = await send(token, sessionId, 'How is it eaten?', 'With soup, by hand.');

    const { result: edited, prompt } = await withAnswer('With light soup, usually.', () =>
      call<AssistantReply>('POST', messagePath(sessionId, second.reply.userMessageId, 'edit'), token, {
        content: 'Which soup goes with it?',
      }),
    );
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ role: 'assistant', content: 'With light soup, usually.', status: 'complete' });
    expect(prompt).toEqual([
      'user: What is fufu?',
      'assistant: Pounded cassava and plantain.',
      'user: Which soup goes with it?',
    ]);

    const branch = await shown(token, sessionId);
    expect(contents(branch)).toEqual([
      'What is fufu?',
      'Pounded cassava and plantain.',
      'Which soup goes with it?',
      'With light soup, usually.',
    ]);
    expect(branch[2]!.version).toEqual({
      index: 1,
      count: 2,
      siblingIds: [second.reply.userMessageId, edited.body.userMessageId],
    });

    // Back to version 1: the old question and its answer, persisted for a fresh read and for the next prompt.
    const selected = await call<SessionWithMessages>(
      'POST',
      messagePath(sessionId, second.reply.userMessageId, 'select'),
      token,
    );
    expect(selected.status).toBe(200);
    expect(contents(selected.body.messages).slice(2)).toEqual(['How is it eaten?', 'With soup, by hand.']);
    expect(contents(await shown(token, sessionId)).slice(2)).toEqual(['How is it eaten?', 'With soup, by hand.']);
    const next = await send(token, sessionId, 'With a spoon?', 'Rarely.');
    expect(next.prompt).toEqual([
      'user: What is fufu?',
      'assistant: Pounded cassava and plantain.',
      'user: How is it eaten?',
      'assistant: With soup, by hand.',
      'user: With a spoon?',
    ]);
  });

  it('regenerates an answer into three versions, each asked only the branch up to its question', async () => {
    const token = await signUp();
    const sessionId = await newConversation(token);
    await send(token, sessionId, 'Hello', 'Hi there.');
    const first = await send(token, sessionId, 'Give me a proverb.', 'Sankofa.');
    const answers = [first.reply];
    for (const text of ['Obi nkyere abofra Nyame.', 'Nsa baako nkura adesoa.']) {
      const { result, prompt } = await withAnswer(text, () =>
        call<AssistantReply>('POST', messagePath(sessionId, first.reply.id, 'regenerate'), token),
      );
      expect(result.status).toBe(201);
      expect(result.body.userMessageId).toBe(first.reply.userMessageId);
      expect(prompt).toEqual(['user: Hello', 'assistant: Hi there.', 'user: Give me a proverb.']);
      answers.push(result.body);
    }
    expect(answers[2]!.version).toEqual({ index: 2, count: 3, siblingIds: answers.map((a) => a.id) });

    const listed = await shown(token, sessionId);
    expect(contents(listed)).toEqual(['Hello', 'Hi there.', 'Give me a proverb.', 'Nsa baako nkura adesoa.']);
    expect(listed.filter((m) => m.role === 'user')).toHaveLength(2);

    // Version 2 of 3, chosen, is what a fresh read shows.
    await call('POST', messagePath(sessionId, answers[1]!.id, 'select'), token);
    const again = await shown(token, sessionId);
    expect(again[3]).toMatchObject({ content: 'Obi nkyere abofra Nyame.', version: { index: 1, count: 3 } });
  });

  it('streams a regenerated answer as Server-Sent Events through the gateway', async () => {
    const token = await signUp();
    const sessionId = await newConversation(token);
    const first = await send(token, sessionId, 'Count to two.', 'One, two.');
    world.provider.mode = { kind: 'ok', text: 'Baako, mmienu.' };
    const streamed = await call<never>(
      'POST',
      messagePath(sessionId, first.reply.id, 'regenerate'),
      token,
      { language: 'en' },
      { accept: 'text/event-stream' },
    );
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(streamed.text).toContain('event: meta');
    expect(streamed.text).toContain('event: done');
    expect(contents(await shown(token, sessionId))).toEqual(['Count to two.', 'Baako, mmienu.']);
  });

  it('answers 404 for another person’s session or message and 400 for a message of the wrong role', async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const sessionId = await newConversation(owner);
    const { reply } = await send(owner, sessionId, 'Mine', 'Yours.');
    const before = world.provider.requests.length;
    const strangerSession = await newConversation(stranger);
    for (const [session, action, messageId] of [
      [sessionId, 'edit', reply.userMessageId],
      [sessionId, 'regenerate', reply.id],
      [sessionId, 'select', reply.id],
      [strangerSession, 'edit', reply.userMessageId],
      [strangerSession, 'regenerate', reply.id],
      [strangerSession, 'select', reply.id],
    ] as const) {
      const res = await call<{ code: string }>('POST', messagePath(session, messageId, action), stranger, {
        ...(action === 'edit' ? { content: 'Not mine' } : {}),
      });
      expect({ action, status: res.status, code: res.body.code }).toEqual({ action, status: 404, code: 'not_found' });
    }

    const editAnswer = await call<{ message: string }>('POST', messagePath(sessionId, reply.id, 'edit'), owner, {
      content: 'Changed',
    });
    expect(editAnswer.status).toBe(400);
    expect(editAnswer.body.message).toMatch(/Only your own messages can be edited/);
    const regenerateMine = await call<{ message: string }>(
      'POST',
      messagePath(sessionId, reply.userMessageId, 'regenerate'),
      owner,
    );
    expect(regenerateMine.status).toBe(400);
    expect(regenerateMine.body.message).toMatch(/Only an answer can be regenerated/);
    // None of these reached the provider, and the conversation is as it was.
    expect(world.provider.requests.length).toBe(before);
    expect(contents(await shown(owner, sessionId))).toEqual(['Mine', 'Yours.']);
  });

  it('answers a retried edit and regenerate with the same Idempotency-Key once, replaying the first answer', async () => {
    const token = await signUp();
    const sessionId = await newConversation(token);
    const { reply } = await send(token, sessionId, 'Question', 'Answer.');
    const key = randomUUID();
    const edit = () =>
      call<AssistantReply>(
        'POST',
        messagePath(sessionId, reply.userMessageId, 'edit'),
        token,
        { content: 'Question, edited' },
        { 'idempotency-key': key },
      );
    world.provider.mode = { kind: 'ok', text: 'Edited answer.' };
    const first = await edit();
    const retried = await edit();
    expect(first.status).toBe(201);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.id).toBe(first.body.id);

    const regenerateKey = randomUUID();
    const regenerate = () =>
      call<never>('POST', messagePath(sessionId, first.body.id, 'regenerate'), token, undefined, {
        'idempotency-key': regenerateKey,
        accept: 'text/event-stream',
      });
    const streamed = await regenerate();
    const replayed = await regenerate();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(streamed.text);

    const listed = await shown(token, sessionId);
    expect(listed[0]!.version).toMatchObject({ count: 2 });
    expect(listed[1]!.version).toMatchObject({ count: 2 });
  });
});
