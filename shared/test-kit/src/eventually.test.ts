import { eventually } from './eventually';

describe('eventually', () => {
  it('resolves with the first value that is not undefined, null or false', async () => {
    const answers = [undefined, null, false, 0, 1];
    expect(await eventually(() => answers.shift(), { intervalMs: 1 })).toBe(0);
  });

  it('treats a throwing probe as not yet', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        if (calls < 3) throw new Error('not ready');
        return 'ready';
      },
      { intervalMs: 1 },
    );
    expect(value).toBe('ready');
  });

  it('says what it waited for, the last error and the context when the time is up', async () => {
    const wait = eventually(
      () => {
        throw new Error('connection refused');
      },
      { timeoutMs: 30, intervalMs: 5, what: 'the service is ready', context: () => 'last log: listening' },
    );
    await expect(wait).rejects.toThrow(
      'the service is ready: not reached within 30 ms (last error: connection refused)\nlast log: listening',
    );
  });
});
