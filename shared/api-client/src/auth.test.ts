import { QueryClient } from '@tanstack/react-query';
import type { User } from '@kasa/contracts';
import { AuthRejectedError, authMeQueryKey, completeSignIn, login, register, signOutLocally, tierLabel } from './auth';
import { ApiError } from './http';
import { getToken, setToken } from './token';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const fetchMock = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit | undefined]>();
const user: User = {
  id: '64b7f0c2a1b2c3d4e5f60718',
  username: 'ama',
  email: 'ama@kasa.example',
  subscriptionTier: 'free',
  createdAt: '2025-01-01T00:00:00.000Z',
};

beforeEach(() => {
  fetchMock.mockReset();
  Object.defineProperty(globalThis, 'fetch', { value: fetchMock, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true, writable: true });
});

describe('login and register', () => {
  it('resolve with the token and user on success', async () => {
    const body = { success: true, token: 'tok', user, message: 'Login successful' };
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status: 200 }));
    await expect(login({ email: user.email, password: 'secret1' })).resolves.toEqual(body);
  });

  it('reject with the server message as an ApiError when the server refuses', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ message: 'Invalid email or password' }), { status: 401 }),
    );
    const error = await login({ email: user.email, password: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).serverMessage).toBe('Invalid email or password');
  });

  it("fall back to 'Login failed' / 'Registration failed' when an OK answer carries no token", async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ success: false }), { status: 200 }));
    await expect(login({ email: user.email, password: 'x' })).rejects.toThrow(new AuthRejectedError('Login failed'));
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ success: true, user }), { status: 200 }));
    await expect(register({ username: 'ama', email: user.email, password: 'secret1' })).rejects.toThrow(
      'Registration failed',
    );
  });
});

describe('completeSignIn and signOutLocally', () => {
  it('store the token and cache the user, then remove both and all cached data', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(['/api/personas'], [{ id: 'kasa' }]);
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ success: true, user }), { status: 200 }));

    await completeSignIn(queryClient, { success: true, token: 'tok', user, message: 'ok' });

    expect(getToken()).toBe('tok');
    expect(queryClient.getQueryData(authMeQueryKey)).toEqual(user);

    signOutLocally(queryClient);

    expect(getToken()).toBeNull();
    expect(queryClient.getQueryData(authMeQueryKey)).toBeUndefined();
    expect(queryClient.getQueryData(['/api/personas'])).toBeUndefined();
  });

  it('signOutLocally is harmless when nobody is signed in', () => {
    setToken('t');
    const queryClient = new QueryClient();
    signOutLocally(queryClient);
    signOutLocally(queryClient);
    expect(getToken()).toBeNull();
  });
});

describe('tierLabel', () => {
  it('names the tiers and defaults to Free', () => {
    expect(tierLabel('pro')).toBe('Pro');
    expect(tierLabel('enterprise')).toBe('Enterprise');
    expect(tierLabel(undefined)).toBe('Free');
    expect(tierLabel('platinum')).toBe('Free');
  });
});
