/**
 * @jest-environment <rootDir>/sdks/react/test/jsdomWithNodeFetch.js
 */
import { Kasa, KasaError, type VideoJob } from '@kasa/sdk';
import {
  createKasaQueryClient,
  KasaProvider,
  kasaKeys,
  useKasa,
  useLanguages,
  useMessages,
  usePersonas,
  useSendMessage,
  useStreamedReply,
  useSynthesize,
  useCreateVideo,
  useVideoFile,
} from '@kasa/react';
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from './testingLibrary';
import { randomUUID } from 'node:crypto';
import { createElement, type ReactNode } from 'react';
import { usePlatformWithFakeProvider } from '../../../tests/support/fakeProviderPlatform';

const world = usePlatformWithFakeProvider();

async function signedIn(): Promise<Kasa> {
  const id = randomUUID().slice(0, 8);
  const kasa = new Kasa({ baseUrl: world.platform.baseUrl });
  await kasa.auth.register({ username: `kwame_${id}`, email: `kwame.${id}@example.com`, password: 'adinkra-sika' });
  return kasa;
}

/** Every cache a test made: emptied after each test, so that one test's data never answers another's query. */
const caches: QueryClient[] = [];
afterEach(() => {
  cleanup();
  for (const cache of caches.splice(0)) cache.clear();
});

function wrapperFor(client: Kasa) {
  const queryClient = createKasaQueryClient();
  caches.push(queryClient);
  return ({ children }: { children?: ReactNode }) => createElement(KasaProvider, { client, queryClient }, children);
}

describe('usePersonas', () => {
  it('loads the personas from the API', async () => {
    const kasa = await signedIn();
    const { result } = renderHook(() => usePersonas(), { wrapper: wrapperFor(kasa) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.map((p) => p.id)).toEqual(
      expect.arrayContaining(['kasa', 'merla', 'ticha', 'massa', 'nana', 'dokta']),
    );
  });

  it('reports the API’s error as a KasaError without retrying a 401', async () => {
    const { result } = renderHook(() => useMessages('0123456789abcdef01234567'), {
      wrapper: wrapperFor(new Kasa({ baseUrl: world.platform.baseUrl })),
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({
      name: 'KasaAuthenticationError',
      status: 401,
      code: 'unauthenticated',
    });
    expect(result.current.failureCount).toBe(1);
  });
});

describe('useSendMessage', () => {
  it('sends a message, resolves with the reply, and refreshes the session’s messages', async () => {
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'nana', title: 'Kumasi' });
    const { result } = renderHook(() => ({ send: useSendMessage(session.id), messages: useMessages(session.id) }), {
      wrapper: wrapperFor(kasa),
    });
    await waitFor(() => expect(result.current.messages.data?.messages).toEqual([]));

    const reply = await act(() => result.current.send.mutateAsync({ content: 'Where is Kejetia market?' }));

    expect(reply).toMatchObject({ role: 'assistant', content: 'Hello from the fake provider.' });
    await waitFor(() => expect(result.current.send.data).toEqual(reply));
    await waitFor(() =>
      expect(result.current.messages.data?.messages.map((m) => m.role)).toEqual(['user', 'assistant']),
    );
  });

  it('exposes a failed send as the mutation’s error', async () => {
    const kasa = await signedIn();
    const { result } = renderHook(() => useSendMessage('0123456789abcdef01234567'), { wrapper: wrapperFor(kasa) });
    await act(async () => {
      await result.current.mutateAsync({ content: 'Anyone there?' }).catch(() => undefined);
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('useStreamedReply', () => {
  it('streams the reply into state and ends with the stored message', async () => {
    const text = 'Medaase one two three four five';
    world.provider.mode = { kind: 'ok', text, delayMs: 10 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Stream' });
    const { result } = renderHook(() => useStreamedReply(session.id), { wrapper: wrapperFor(kasa) });
    const seen: string[] = [];

    let sending!: Promise<unknown>;
    act(() => {
      sending = result.current.send({ content: 'Count' });
    });
    await waitFor(() => {
      seen.push(result.current.text);
      expect(result.current.status).toBe('done');
    });
    await act(() => sending);

    expect(result.current.text).toBe(text);
    expect(result.current.message).toMatchObject({ content: text, status: 'complete' });
    expect(result.current.meta).toMatchObject({ provider: 'fake' });
    // Partial texts seen on the way are prefixes of the reply: tokens arrived in order.
    expect(seen.every((partial) => text.startsWith(partial))).toBe(true);
  });

  it('stops the reply: state says stopped and the server stores it as stopped', async () => {
    world.provider.mode = { kind: 'endless', intervalMs: 20 };
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Stop' });
    const { result } = renderHook(() => useStreamedReply(session.id), { wrapper: wrapperFor(kasa) });

    act(() => {
      void result.current.send({ content: 'Go on' });
    });
    await waitFor(() => expect(result.current.text).toContain('w3 '));
    act(() => result.current.stop());

    await waitFor(() => expect(result.current.status).toBe('stopped'));
    await waitFor(async () => {
      const page = await kasa.chat.messages.list(session.id);
      expect(page.messages.find((m) => m.role === 'assistant')?.status).toBe('stopped');
    });
  });

  it('reports a refused message as an error', async () => {
    const kasa = await signedIn();
    const session = await kasa.chat.sessions.create({ personaId: 'kasa', title: 'Voice' });
    const { result } = renderHook(() => useStreamedReply(session.id), { wrapper: wrapperFor(kasa) });
    await act(() => result.current.send({ content: 'Hi', type: 'voice' }));
    expect(result.current.status).toBe('error');
    expect((result.current.error as KasaError).status).toBe(403);
  });
});

describe('useLanguages and useSynthesize', () => {
  it('lists languages and surfaces the plan error of speech on Free', async () => {
    const kasa = await signedIn();
    const { result } = renderHook(() => ({ languages: useLanguages({ capability: 'chat' }), speak: useSynthesize() }), {
      wrapper: wrapperFor(kasa),
    });
    await waitFor(() => expect(result.current.languages.data?.count).toBeGreaterThan(30));
    await act(async () => {
      await result.current.speak.mutateAsync({ text: 'Akwaaba' }).catch(() => undefined);
    });
    await waitFor(() => expect(result.current.speak.error).toMatchObject({ status: 403 }));
  });
});

describe('useCreateVideo and useVideoFile on the platform', () => {
  it('refuses a video on Free with a 403 KasaError naming the Enterprise plan', async () => {
    const kasa = await signedIn();
    const { result } = renderHook(() => useCreateVideo(), { wrapper: wrapperFor(kasa) });
    await act(async () => {
      await result.current.mutateAsync({ prompt: 'Akwaaba!', language: 'en' }).catch(() => undefined);
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(KasaError);
    expect(result.current.error).toMatchObject({ status: 403, code: 'forbidden', details: { plan: 'enterprise' } });
  });

  it('reports a video file the platform does not have as a 404 KasaError', async () => {
    const id = 'AAAAAAAAAAAAAAAAAAAAAA';
    const job: VideoJob = {
      id,
      status: 'succeeded',
      progress: 100,
      prompt: 'Akwaaba!',
      language: 'en',
      renderer: 'offline',
      videoUrl: `/api/video/files/${id}`,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const { result } = renderHook(() => useVideoFile(job), { wrapper: wrapperFor(await signedIn()) });
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toBeInstanceOf(KasaError);
    expect(result.current.error).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('KasaProvider', () => {
  it('makes a cache with Kasa’s defaults when the app has none', async () => {
    const kasa = await signedIn();
    const wrapper = ({ children }: { children?: ReactNode }) => createElement(KasaProvider, { client: kasa }, children);
    const { result } = renderHook(() => ({ personas: usePersonas(), cache: useQueryClient() }), { wrapper });
    caches.push(result.current.cache);
    await waitFor(() => expect(result.current.personas.isSuccess).toBe(true));
    expect(result.current.cache.getDefaultOptions().queries).toMatchObject({
      staleTime: 120_000,
      gcTime: 300_000,
      refetchOnWindowFocus: false,
    });
  });

  it('uses the app’s own QueryClient when one is above it', async () => {
    const kasa = await signedIn();
    const queryClient = new QueryClient();
    caches.push(queryClient);
    const wrapper = ({ children }: { children?: ReactNode }) =>
      createElement(
        QueryClientProvider,
        { client: queryClient },
        createElement(KasaProvider, { client: kasa }, children),
      );
    const { result } = renderHook(() => usePersonas(), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(queryClient.getQueryData(kasaKeys.personas())).toEqual(result.current.data);
  });

  it('makes useKasa fail clearly outside a provider', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useKasa())).toThrow(/inside a <KasaProvider/);
  });
});
