import { HistoryCache } from './historyCache';

const user = (content: string) => ({ role: 'user' as const, content });

describe('HistoryCache', () => {
  it('adds turns only to sessions it holds, keeps the newest messages within its size, and forgets the least used', () => {
    const cache = new HistoryCache(2, 10);
    expect(cache.get('a')).toBeUndefined();
    cache.append('a', 'r1', user('lost'));
    expect(cache.get('a')).toBeUndefined();

    cache.set('a', [], 'r1');
    cache.append('a', 'r1', user('1234'), user('5678'));
    cache.append('a', 'r1', user('abcd'));
    // 12 characters do not fit in 10: the oldest message goes.
    expect(cache.get('a')).toEqual({ history: [user('5678'), user('abcd')], leafId: 'r1' });

    cache.set('b', [user('b')], null);
    cache.get('a');
    cache.set('c', [user('c')], 'r3');
    // 'b' was used least recently.
    expect([cache.get('a') !== undefined, cache.get('b'), cache.get('c')?.history]).toEqual([
      true,
      undefined,
      [user('c')],
    ]);
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets a session whose branch moved on while a turn was being answered', () => {
    const cache = new HistoryCache(10, 100);
    cache.set('a', [user('first')], 'r1');
    // A second message started (its reply is r2) before r1's turn was stored.
    cache.set('a', [user('first')], 'r2');
    cache.append('a', 'r1', user('asked'), { role: 'assistant', content: 'answered' });
    expect(cache.get('a')).toBeUndefined();
  });
});
