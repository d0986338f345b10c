import { WriteGate } from './writeGate';

describe('WriteGate', () => {
  it('runs at most its limit of writes at once and the waiting ones in order, passing results and errors through', async () => {
    const gate = new WriteGate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const write = (i: number) =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running -= 1;
        order.push(i);
        if (i === 3) throw new Error('write 3 failed');
        return i * 10;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(write));
    expect(most).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      0,
      10,
      20,
      'write 3 failed',
      40,
      50,
    ]);
    // A failed write gives its place back: the gate still admits two at once afterwards.
    running = 0;
    most = 0;
    await Promise.all([6, 7].map(write));
    expect(most).toBe(2);
  });
});
