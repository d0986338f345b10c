import type { AssistantReply } from '@kasa/contracts';
import { titleFrom, turnReducer, type LiveTurn } from './liveTurn';

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
