import type { AssistantReply, StoredMessage } from '@kasa/contracts';
import { shownMessages, titleFrom, turnReducer, type LiveTurn } from './liveTurn';

const started: LiveTurn = {
  kind: 'send',
  content: 'Hello',
  messageType: 'text',
  language: 'auto',
  sentAt: '2025-01-01T00:00:00.000Z',
  userMessageId: null,
  draft: { id: null, text: '', provider: null, model: null, stopping: false },
  error: null,
  active: true,
  finalStatus: null,
};

const reply: AssistantReply = {
  id: 'a1',
  role: 'assistant',
  content: 'Hi there, stopped',
  timestamp: '2025-01-01T00:00:01.000Z',
  type: 'text',
  status: 'stopped',
  provider: 'offline',
  model: 'kasa-offline',
  userMessageId: 'u1',
};

describe('turnReducer', () => {
  it('takes the ids and provider from meta, and appends or replaces text', () => {
    let turn = turnReducer(started, {
      type: 'meta',
      meta: { userMessageId: 'u1', assistantMessageId: 'a1', provider: 'groq', model: 'llama', continued: false },
    });
    turn = turnReducer(turn, { type: 'text', text: 'Hi ', replace: false });
    turn = turnReducer(turn, { type: 'text', text: 'there', replace: false });
    expect(turn).toMatchObject({ userMessageId: 'u1', draft: { id: 'a1', provider: 'groq', text: 'Hi there' } });
    expect(turnReducer(turn, { type: 'text', text: 'Everything so far', replace: true })?.draft.text).toBe(
      'Everything so far',
    );
  });

  it('keeps the provider named by a failover meta', () => {
    const turn = turnReducer(started, {
      type: 'meta',
      meta: { userMessageId: '', assistantMessageId: 'a1', provider: 'offline', model: 'm', continued: true },
    });
    expect(turn?.draft.provider).toBe('offline');
    expect(turn?.userMessageId).toBeNull();
  });

  it('ends the turn with the stored reply, or with the error and the text so far', () => {
    const stopping = turnReducer(started, { type: 'stopping', stopping: true });
    expect(stopping?.draft.stopping).toBe(true);
    const finished = turnReducer(stopping, { type: 'finished', reply });
    expect(finished).toMatchObject({
      active: false,
      finalStatus: 'stopped',
      userMessageId: 'u1',
      draft: { id: 'a1', text: 'Hi there, stopped', stopping: false },
    });

    const partial = turnReducer(started, { type: 'text', text: 'Half a', replace: false });
    const failed = turnReducer(partial, { type: 'failed', message: 'No AI provider could answer.' });
    expect(failed).toMatchObject({ active: false, error: 'No AI provider could answer.', draft: { text: 'Half a' } });
  });

  it('ignores events once the turn is cleared', () => {
    expect(turnReducer(started, { type: 'clear' })).toBeNull();
    expect(turnReducer(null, { type: 'text', text: 'late token', replace: false })).toBeNull();
    expect(turnReducer(null, { type: 'finished', reply })).toBeNull();
  });
});

describe('titleFrom', () => {
  it('uses the first message on one line, cut to 60 characters', () => {
    expect(titleFrom('  What is\n\nKasa?  ')).toBe('What is Kasa?');
    const long = 'a'.repeat(100);
    expect(titleFrom(long)).toHaveLength(60);
    expect(titleFrom(long).endsWith('…')).toBe(true);
    expect(titleFrom('   ')).toBe('New chat');
  });
});

describe('shownMessages', () => {
  const stored = (id: string, role: 'user' | 'assistant', content: string, count = 1): StoredMessage => ({
    id,
    role,
    content,
    timestamp: '2025-01-01T00:00:00.000Z',
    type: 'text',
    status: 'complete',
    version: { index: count - 1, count, siblingIds: Array.from({ length: count }, (_, i) => `${id}-${i}`) },
  });
  const conversation = [
    stored('u1', 'user', 'Where is Kumasi?'),
    stored('a1', 'assistant', 'In Ghana.'),
    stored('u2', 'user', 'What is kente?'),
    stored('a2', 'assistant', 'A woven cloth.', 2),
  ];
  const view = (turn: LiveTurn | null) => shownMessages(conversation, turn).map((m) => `${m.key}:${m.content}`);

  it('shows the reply’s place in the local model’s line until its turn comes or its first text arrives', () => {
    const reply = (turn: LiveTurn | null) => shownMessages([], turn).find((m) => m.key === 'live-reply');
    const waiting = turnReducer(started, { type: 'queued', position: 2 });
    expect(reply(waiting)).toMatchObject({ status: 'streaming', queuePosition: 2 });
    expect(reply(turnReducer(waiting, { type: 'queued', position: 1 }))?.queuePosition).toBe(1);
    expect(reply(turnReducer(waiting, { type: 'queued', position: 0 }))?.queuePosition).toBeUndefined();
    expect(reply(turnReducer(waiting, { type: 'text', text: 'Hi', replace: false }))?.queuePosition).toBeUndefined();
  });

  it('shows the stored messages with their versions, then the message being sent and its reply', () => {
    const sending = turnReducer(started, { type: 'text', text: 'Hi', replace: false });
    expect(view(sending)).toEqual([
      'u1:Where is Kumasi?',
      'a1:In Ghana.',
      'u2:What is kente?',
      'a2:A woven cloth.',
      'live-user:Hello',
      'live-reply:Hi',
    ]);
    expect(shownMessages(conversation, null)[3]!.version).toMatchObject({ index: 1, count: 2 });
  });

  it('puts an edit in place of the edited message and everything below it', () => {
    const editing: LiveTurn = { ...started, content: 'What is adinkra?', branch: { action: 'edit', messageId: 'u2' } };
    expect(view(editing)).toEqual(['u1:Where is Kumasi?', 'a1:In Ghana.', 'live-user:What is adinkra?', 'live-reply:']);
  });

  it('writes a regenerated answer where the old one was, under its stored question', () => {
    const asking: LiveTurn = { ...started, content: null, branch: { action: 'regenerate', messageId: 'a2' } };
    // The stream names the question it answers: the stored question stays shown.
    const named = turnReducer(asking, {
      type: 'meta',
      meta: { userMessageId: 'u2', assistantMessageId: 'a3', provider: 'p', model: 'm', continued: false },
    });
    const writing = turnReducer(named, { type: 'text', text: 'Kente is', replace: false });
    expect(view(writing)).toEqual(['u1:Where is Kumasi?', 'a1:In Ghana.', 'u2:What is kente?', 'live-reply:Kente is']);
  });

  it('gives way to the stored branch once it is read again with the new version', () => {
    const editing: LiveTurn = {
      ...started,
      content: 'What is adinkra?',
      branch: { action: 'edit', messageId: 'u2' },
      userMessageId: 'u3',
      draft: { ...started.draft, id: 'a3', text: 'Symbols.' },
      active: false,
      finalStatus: 'complete',
    };
    const reread = [
      conversation[0]!,
      conversation[1]!,
      stored('u3', 'user', 'What is adinkra?', 2),
      stored('a3', 'assistant', 'Symbols.'),
    ];
    expect(shownMessages(reread, editing).map((m) => m.key)).toEqual(['u1', 'a1', 'live-user', 'live-reply']);
  });

  it('shows the files a message carries, stored or being sent', () => {
    const photo = {
      id: 'p'.repeat(22),
      kind: 'image' as const,
      name: 'harbour.png',
      mediaType: 'image/png',
      size: 157,
    };
    const notes = {
      id: 'n'.repeat(22),
      kind: 'document' as const,
      name: 'notes.txt',
      mediaType: 'text/plain',
      size: 48,
    };
    const withFile: StoredMessage = { ...stored('u1', 'user', 'What is this?'), attachments: [photo] };
    const sending: LiveTurn = { ...started, content: 'And this?', attachments: [notes] };
    const shown = shownMessages([withFile, stored('a1', 'assistant', 'A harbour.')], sending);
    expect(shown.map((m) => [m.key, m.attachments?.map((a) => a.name)])).toEqual([
      ['u1', ['harbour.png']],
      ['a1', undefined],
      ['live-user', ['notes.txt']],
      ['live-reply', undefined],
    ]);
  });
});
