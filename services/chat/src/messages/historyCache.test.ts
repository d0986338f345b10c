import { HistoryCache } from './historyCache';

const user = (content: string) => ({ role: 'user' as const, content });

describe('HistoryCache', () => {
  it('adds turns only to sessions it holds, keeps the newest messages within its size, and forgets the least used', () => {
    const cache = new HistoryCache(2, 10);
    expect(cache.get('a')).toBeUndefined();
    cache.append('a', user('lost'));
    expect(cache.get('a')).toBeUndefined();

    cache.set('a', []);
    cache.append('a', user('1234'), user('5678'));
    cache.append('a', user('abcd'));
    // 12 characters do not fit in 10: the oldest message goes.
    expect(cache.get('a')).toEqual([user('5678'), user('abcd')]);

    cache.set('b', [user('b')]);
    cache.get('a');
    cache.set('c', [user('c')]);
    // 'b' was used least recently.
    expect([cache.get('a') !== undefined, cache.get('b'), cache.get('c')]).toEqual([true, undefined, [user('c')]]);
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
  });
});
