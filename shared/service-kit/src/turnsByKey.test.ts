import { TurnsByKey } from './turnsByKey';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnsByKey', () => {
  it('runs one key’s steps one after another, in order, and other keys alongside', async () => {
    const turns = new TurnsByKey();
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      turns.run('ama', step('a1')),
      turns.run('ama', step('a2')),
      turns.run('kofi', step('k1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'k1']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('k1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('goes on after a step fails, passing the failure to its own caller only', async () => {
    const turns = new TurnsByKey();
    const failed = turns.run('ama', () => Promise.reject(new Error('no room')));
    const next = turns.run('ama', () => Promise.resolve('stored'));
    await expect(failed).rejects.toThrow('no room');
    await expect(next).resolves.toBe('stored');
  });

  it('keeps nothing for a key once its steps have settled', async () => {
    const turns = new TurnsByKey();
    await Promise.all([turns.run('ama', () => tick()), turns.run('kofi', () => tick())]);
    await tick();
    expect(turns.pending).toBe(0);
  });

  it('keeps a simultaneous check-then-act within its limit', async () => {
    const turns = new TurnsByKey();
    let stored = 0;
    // Read, wait (a database round trip), then write: without turns all six would see room.
    const upload = () =>
      turns.run('ama', async () => {
        const seen = stored;
        await tick();
        if (seen >= 2) return false;
        stored = seen + 1;
        return true;
      });
    const accepted = await Promise.all(Array.from({ length: 6 }, upload));
    expect(accepted.filter(Boolean)).toHaveLength(2);
    expect(stored).toBe(2);
  });
});
