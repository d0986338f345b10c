import { QueryClient } from '@tanstack/react-query';
import type { StoredMessage } from '@kasa/contracts';
import { chatKeys } from './chatApi';
import { messagesOf, seedNewSession, upsertMessages } from './chatQueries';

const message = (id: string, content: string, status: StoredMessage['status'] = 'complete'): StoredMessage => ({
  id,
  role: id.startsWith('u') ? 'user' : 'assistant',
  content,
  timestamp: '2025-01-01T00:00:00.000Z',
  type: 'text',
  status,
});

const session = { id: 's1', personaId: 'kasa', title: 'Hello', createdAt: '2025-01-01T00:00:00.000Z' };

describe('the session cache', () => {
  it('seeds a new session empty, then upserts messages by id (a page fetched mid-reply included)', () => {
    const queryClient = new QueryClient();
    seedNewSession(queryClient, session);
    expect(messagesOf(queryClient.getQueryData(chatKeys.session('s1')))).toEqual([]);

    upsertMessages(queryClient, 's1', [message('u1', 'Hi'), message('a1', 'Hel', 'streaming')]);
    upsertMessages(queryClient, 's1', [message('u1', 'Hi'), message('a1', 'Hello!')]);

    expect(messagesOf(queryClient.getQueryData(chatKeys.session('s1')))).toEqual([
      message('u1', 'Hi'),
      message('a1', 'Hello!'),
    ]);
  });

  it('lists older pages first', () => {
    const page = (messages: StoredMessage[]) => ({ ...session, messages, nextCursor: null });
    const data = { pages: [page([message('u3', 'new'), message('a3', 'newest')]), page([message('u1', 'old')])] };
    expect(messagesOf(data).map((m) => m.id)).toEqual(['u1', 'u3', 'a3']);
  });

  it('leaves a session that is not cached alone', () => {
    const queryClient = new QueryClient();
    upsertMessages(queryClient, 'nope', [message('u1', 'Hi')]);
    expect(queryClient.getQueryData(chatKeys.session('nope'))).toBeUndefined();
  });
});
