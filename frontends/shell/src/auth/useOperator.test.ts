/**
 * @jest-environment jsdom
 */
import { authMeQueryKey, createQueryClient, setToken } from '@kasa/api-client';
import type { MeResponse, User } from '@kasa/contracts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { operatorOf, useIsOperator } from './useOperator';

const account: User = {
  id: 'u-1',
  username: 'efua',
  email: 'efua@example.com',
  subscriptionTier: 'free',
  createdAt: '2026-12-07T10:00:00.000Z',
};

/** What the browser asked for, by URL. */
const requested: string[] = [];
/** What GET /api/auth/me answers next: the person, operator or not. */
let operatorNow = false;
/** While set, GET /api/auth/me waits for it before answering. */
let hold: Promise<void> | null = null;

function answer(status: number, body: unknown): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    headers: new Headers({ 'content-type': 'application/json' }),
    json: async () => body,
    text: async () => JSON.stringify(body),
  } as unknown as Response;
}

const fakeFetch = async (input: RequestInfo | URL): Promise<Response> => {
  const url = String(input);
  requested.push(url);
  if (url === '/api/auth/me') {
    if (hold) await hold;
    const me: MeResponse = { success: true, user: { ...account, operator: operatorNow } };
    return answer(200, me);
  }
  return answer(404, { message: 'Not found', code: 'not_found' });
};

let queryClient: QueryClient;

function wrapper({ children }: { children?: ReactNode }) {
  return createElement(QueryClientProvider, { client: queryClient }, children);
}

beforeEach(() => {
  requested.length = 0;
  operatorNow = false;
  hold = null;
  Object.defineProperty(globalThis, 'fetch', { value: fakeFetch, configurable: true, writable: true });
  queryClient = createQueryClient();
  setToken('token-of-efua');
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  localStorage.clear();
});

describe('useIsOperator', () => {
  it('says an operator is one from GET /api/auth/me alone, without asking the operators’ API', async () => {
    operatorNow = true;
    const { result } = renderHook(() => useIsOperator(), { wrapper });
    await waitFor(() => expect(result.current).toEqual({ data: true, isPending: false }));
    expect(requested).toEqual(['/api/auth/me']);
    expect(requested.some((url) => url.startsWith('/api/admin'))).toBe(false);
  });

  it('says anyone else is not, and a demoted operator loses the role at the next refresh of me', async () => {
    operatorNow = true;
    const { result } = renderHook(() => useIsOperator(), { wrapper });
    await waitFor(() => expect(result.current.data).toBe(true));
    operatorNow = false;
    await queryClient.invalidateQueries({ queryKey: authMeQueryKey });
    await waitFor(() => expect(result.current).toEqual({ data: false, isPending: false }));
    expect(requested).toEqual(['/api/auth/me', '/api/auth/me']);
  });

  it('is pending while me has not said, after a sign-in cached the user without the role', async () => {
    let release = () => {};
    hold = new Promise<void>((resolve) => (release = resolve));
    operatorNow = true;
    // What a sign-in does: the user from its answer (no role in it), then a fresh me.
    queryClient.setQueryData(authMeQueryKey, account);
    void queryClient.invalidateQueries({ queryKey: authMeQueryKey });
    const { result } = renderHook(() => useIsOperator(), { wrapper });
    await waitFor(() => expect(requested).toEqual(['/api/auth/me']));
    expect(result.current).toEqual({ data: false, isPending: true });
    release();
    await waitFor(() => expect(result.current).toEqual({ data: true, isPending: false }));
  });

  it('is false and asks nothing when signed out', () => {
    localStorage.clear();
    const { result } = renderHook(() => useIsOperator(), { wrapper });
    expect(result.current).toEqual({ data: false, isPending: false });
    expect(requested).toEqual([]);
  });
});

describe('operatorOf', () => {
  it('reads the role from the person me answered with, and nothing from a record without it', () => {
    expect(operatorOf({ ...account, operator: true })).toBe(true);
    expect(operatorOf({ ...account, operator: false })).toBe(false);
    expect(operatorOf(account)).toBeUndefined();
    expect(operatorOf(null)).toBeUndefined();
  });
});
