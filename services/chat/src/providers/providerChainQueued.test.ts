import { createLogger } from '@kasa/service-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatProvider, ProviderChunk, ProviderRequest } from './chatProvider';
import { ProviderChain } from './providerChain';

const logger = createLogger({ service: 'chat-test', version: 'test', level: 'silent' });
const breaker = { errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeoutMs: 30_000, windowMs: 10_000 };

type Step = ProviderChunk | { wait: number } | 'hang';

/** A provider that answers in turn: plays its steps (chunks, pauses, or waiting until the attempt is aborted). */
function queuedProvider(steps: Step[]): ChatProvider {
  return {
    name: 'local',
    modelFor: () => 'tiny.gguf',
    async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
      for (const step of steps) {
        if (step === 'hang')
          await new Promise((_, reject) =>
            request.signal.addEventListener('abort', () => reject(request.signal.reason as Error)),
          );
        else if ('wait' in step) await sleep(step.wait, undefined, { signal: request.signal });
        else yield step;
      }
    },
  };
}

const offline: ChatProvider = {
  name: 'offline',
  modelFor: () => 'notes',
  async *stream() {
    yield { type: 'text', text: 'offline answer' };
  },
};

function run(chain: ProviderChain, positions: number[] = []) {
  return chain.run(
    {
      personaId: 'kasa',
      system: '',
      messages: [{ role: 'user', content: 'Hi' }],
      signal: new AbortController().signal,
    },
    { onText: () => undefined, onQueued: (position) => positions.push(position) },
  );
}

describe('ProviderChain with a provider that answers in turn', () => {
  let chain: ProviderChain | undefined;
  afterEach(() => chain?.shutdown());

  it('reports each place in line, and does not take a long wait in line for a missing first token', async () => {
    chain = new ProviderChain(
      [
        queuedProvider([
          { type: 'queued', position: 2 },
          { wait: 250 },
          { type: 'queued', position: 1 },
          { wait: 250 },
          { type: 'queued', position: 0 },
          { type: 'text', text: 'My turn.' },
        ]),
      ],
      offline,
      { firstTokenMs: 100, idleMs: 100, totalMs: 5_000 },
      breaker,
      logger,
    );
    const positions: number[] = [];
    const result = await run(chain, positions);
    expect(positions).toEqual([2, 1, 0]);
    expect(result).toMatchObject({ status: 'complete', provider: 'local', text: 'My turn.' });
  });

  it('bounds the whole wait in line by the total deadline, then falls over', async () => {
    chain = new ProviderChain(
      [queuedProvider([{ type: 'queued', position: 3 }, 'hang'])],
      offline,
      { firstTokenMs: 100, idleMs: 100, totalMs: 400 },
      breaker,
      logger,
    );
    const started = performance.now();
    const result = await run(chain);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ status: 'complete', provider: 'offline', text: 'offline answer' });
    expect(result.attempts[0]).toMatchObject({ provider: 'local', outcome: 'timeout' });
    expect(result.attempts[0]!.detail).toMatch(/took too long/);
  });

  it('times the first token again from the moment its turn comes', async () => {
    chain = new ProviderChain(
      [queuedProvider([{ type: 'queued', position: 1 }, { wait: 200 }, { type: 'queued', position: 0 }, 'hang'])],
      offline,
      { firstTokenMs: 100, idleMs: 100, totalMs: 5_000 },
      breaker,
      logger,
    );
    const result = await run(chain);
    expect(result).toMatchObject({ provider: 'offline' });
    expect(result.attempts[0]).toMatchObject({ provider: 'local', outcome: 'timeout' });
    expect(result.attempts[0]!.detail).toMatch(/no first token within 100 ms/);
    expect(result.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(290);
  });
});
