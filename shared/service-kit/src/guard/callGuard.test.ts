import pino from 'pino';
import { CallGuard, isOpenCircuit } from './callGuard';
import { CallerAbortError, DeadlineExceededError, withDeadline } from './deadline';

const logger = pino({ level: 'silent' });
const settings = { errorThresholdPercentage: 50, volumeThreshold: 2, resetTimeoutMs: 200, logger };

/** A call that never answers by itself, only when its signal aborts (as a well-behaved client library does). */
const hangs = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

describe('withDeadline', () => {
  it('answers with the call when it settles in time', async () => {
    await expect(withDeadline({ timeoutMs: 1_000 }, async () => 'ok')).resolves.toBe('ok');
    await expect(withDeadline({}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it('rejects with a DeadlineExceededError naming what timed out, and aborts the call', async () => {
    let seen: AbortSignal | undefined;
    const failure = await withDeadline({ timeoutMs: 30, what: 'deepl' }, (d) => {
      seen = d.signal;
      return hangs(d.signal);
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DeadlineExceededError);
    expect(failure).toMatchObject({ what: 'deepl', ms: 30, message: 'deepl: no answer within 30 ms' });
    expect(seen?.aborted).toBe(true);
  });

  it('leaves behind at once a call that ignores its signal', async () => {
    const started = Date.now();
    const never = new Promise<never>(() => undefined);
    await expect(withDeadline({ timeoutMs: 30 }, () => never)).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('restarts the moving deadline each time it is armed, with its own message', async () => {
    const failure = await withDeadline({ timeoutMs: 5_000 }, async (d) => {
      for (let i = 0; i < 4; i += 1) {
        d.arm('idle', 60, 'stalled within 60 ms');
        await new Promise((resolve) => setTimeout(resolve, 20)); // each chunk in time
      }
      d.arm('idle', 30, 'stalled within 30 ms');
      return hangs(d.signal);
    }).catch((err: unknown) => err);
    expect(failure).toMatchObject({
      name: 'DeadlineExceededError',
      what: 'idle',
      ms: 30,
      message: 'stalled within 30 ms',
    });
  });

  it("ends with the caller's abort error when the caller goes away, and with the signal's reason if it had already", async () => {
    const caller = new AbortController();
    const running = withDeadline({ signal: caller.signal, timeoutMs: 5_000 }, (d) => hangs(d.signal));
    caller.abort();
    await expect(running).rejects.toBeInstanceOf(CallerAbortError);

    const gone = new AbortController();
    gone.abort(new Error('request closed'));
    await expect(withDeadline({ signal: gone.signal }, async () => 'never run')).rejects.toThrow('request closed');
  });

  it("reports the call's own failure passed to cancel()", async () => {
    const failure = await withDeadline({ timeoutMs: 5_000 }, async (d) => {
      d.cancel(new Error('bad chunk'));
      return hangs(d.signal);
    }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ message: 'bad chunk' });
  });
});

describe('CallGuard', () => {
  it('opens the circuit of a callee that keeps failing, skips it at once, and tries it again after the reset time', async () => {
    const guard = new CallGuard(settings);
    try {
      for (let i = 0; i < 2; i += 1) {
        await expect(guard.run('slow', { timeoutMs: 20, what: 'slow' }, (d) => hangs(d.signal))).rejects.toBeInstanceOf(
          DeadlineExceededError,
        );
      }
      expect(guard.circuit('slow')).toBe('open');
      let called = false;
      const refused = await guard
        .run('slow', { timeoutMs: 20 }, async () => {
          called = true;
        })
        .catch((err: unknown) => err);
      expect(isOpenCircuit(refused)).toBe(true);
      expect(called).toBe(false);
      // Another callee has its own breaker.
      expect(guard.circuit('other')).toBe('closed');
      await expect(guard.run('other', {}, async () => 'fine')).resolves.toBe('fine');

      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(guard.circuit('slow')).toBe('half-open');
      await expect(guard.run('slow', { timeoutMs: 200 }, async () => 'back')).resolves.toBe('back');
      expect(guard.circuit('slow')).toBe('closed');
    } finally {
      guard.shutdown();
    }
  });

  it("never counts the caller's own abort against the callee", async () => {
    const guard = new CallGuard(settings);
    try {
      for (let i = 0; i < 4; i += 1) {
        const caller = new AbortController();
        const running = guard.run('p', { signal: caller.signal, timeoutMs: 5_000 }, (d) => hangs(d.signal));
        setTimeout(() => caller.abort(), 5);
        await expect(running).rejects.toBeInstanceOf(CallerAbortError);
      }
      expect(guard.circuit('p')).toBe('closed');
    } finally {
      guard.shutdown();
    }
  });
});
