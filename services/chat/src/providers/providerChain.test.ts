import { createLogger } from '@kasa/service-kit';
import type { ChatProvider, ProviderChunk, ProviderRequest } from './chatProvider';
import { ProviderChain } from './providerChain';

const logger = createLogger({ service: 'chat-test', version: 'test', level: 'silent' });
const breaker = { errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeoutMs: 30_000, windowMs: 10_000 };

/** A provider that streams the given pieces, then (when `hangAfter`) waits forever without looking at the signal. */
function provider(
  name: string,
  pieces: string[],
  options: { hangAfter?: boolean; vision?: boolean; seen?: ProviderRequest[] } = {},
): ChatProvider {
  return {
    name,
    modelFor: () => `${name}-model`,
    vision: options.vision,
    async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
      options.seen?.push(request);
      for (const text of pieces) yield { type: 'text', text };
      if (options.hangAfter) await new Promise<never>(() => undefined);
    },
  };
}

function chainOf(providers: ChatProvider[], timeouts = { firstTokenMs: 5_000, idleMs: 5_000, totalMs: 10_000 }) {
  return new ProviderChain(providers, provider('offline', ['offline answer']), timeouts, breaker, logger);
}

describe('ProviderChain', () => {
  let chain: ProviderChain | undefined;
  afterEach(() => chain?.shutdown());

  it('streams a provider’s pieces in order as one reply', async () => {
    chain = chainOf([provider('first', ['Hello', ', ', 'world'])]);
    const seen: string[] = [];
    const result = await chain.run(
      {
        personaId: 'kasa',
        system: '',
        messages: [{ role: 'user', content: 'Hi' }],
        signal: new AbortController().signal,
      },
      { onText: (text) => seen.push(text) },
    );
    expect(seen).toEqual(['Hello', ', ', 'world']);
    expect(result).toMatchObject({ text: 'Hello, world', status: 'complete', provider: 'first' });
  });

  it('stops at once when the person stops, even while a provider that ignores the abort is waiting', async () => {
    chain = chainOf([provider('stuck', ['Part of a reply'], { hangAfter: true })]);
    const stop = new AbortController();
    const seen: string[] = [];
    const running = chain.run(
      { personaId: 'kasa', system: '', messages: [{ role: 'user', content: 'Hi' }], signal: stop.signal },
      {
        onText: (text) => {
          seen.push(text);
          setImmediate(() => stop.abort());
        },
      },
    );
    const result = await running;
    expect(seen).toEqual(['Part of a reply']);
    expect(result).toMatchObject({ status: 'stopped', text: 'Part of a reply', provider: 'stuck' });
  });

  it('sends images only to a provider that sees them', async () => {
    const seen: ProviderRequest[] = [];
    const image = { data: new Uint8Array([0x89, 0x50]), mediaType: 'image/png' };
    chain = chainOf([provider('eyes', ['A red cloth.'], { vision: true, seen })]);
    expect(chain.seesImages()).toBe(true);
    const result = await chain.run(
      {
        personaId: 'kasa',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'What is it?', images: [image] }],
        signal: new AbortController().signal,
      },
      { onText: () => undefined },
    );
    expect(result.text).toBe('A red cloth.');
    expect(seen[0]!.messages[0]!.images).toEqual([image]);
    expect(seen[0]!.system).toBe('Be brief.');
  });

  it('says first, in the reply, that a provider that cannot see images did not see them', async () => {
    const seen: ProviderRequest[] = [];
    chain = chainOf([provider('blind', ['From your words: kente.'], { seen })]);
    expect(chain.seesImages()).toBe(false);
    const pieces: string[] = [];
    const result = await chain.run(
      {
        personaId: 'kasa',
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'What is it?', images: [{ data: new Uint8Array([1]), mediaType: 'image/png' }] },
        ],
        signal: new AbortController().signal,
        noVisionNotice: 'No eyes here. ',
      },
      { onText: (text) => pieces.push(text) },
    );
    expect(pieces[0]).toBe('No eyes here. ');
    expect(result.text).toBe('No eyes here. From your words: kente.');
    expect(seen[0]!.messages).toEqual([{ role: 'user', content: 'What is it?' }]);
    expect(seen[0]!.system).toMatch(/^Be brief\.\nThe user attached images to their message, but you cannot see them/);
  });

  it('leaves a provider that stops sending behind at the idle timeout and lets the next one continue the reply', async () => {
    chain = chainOf([provider('stalls', ['The start'], { hangAfter: true }), provider('second', [' and the end'])], {
      firstTokenMs: 1_000,
      idleMs: 50,
      totalMs: 5_000,
    });
    const result = await chain.run(
      {
        personaId: 'kasa',
        system: '',
        messages: [{ role: 'user', content: 'Hi' }],
        signal: new AbortController().signal,
      },
      { onText: () => undefined },
    );
    expect(result.status).toBe('complete');
    expect(result.text).toBe('The start and the end');
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['stalls', 'timeout'],
      ['second', 'ok'],
    ]);
  });
});
