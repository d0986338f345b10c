import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { AuthResponse, LoginRequest, MeResponse, RegisterRequest, SubscriptionTier, User } from '@kasa/contracts';
import { apiJson } from './http';
import { clearToken, getToken, setToken, subscribeToken } from './token';

/** The react-query key of the signed-in user (GET /api/auth/me); its data is a `User`. */
export const authMeQueryKey = ['/api/auth/me'] as const;

/** The spec caches the user lookup for 5 minutes. */
export const AUTH_ME_STALE_TIME_MS = 5 * 60 * 1000;

/** Where logout sends the browser: the server revokes the token (httpOnly cookie), clears it and redirects to /. */
export const LOGOUT_URL = '/api/auth/logout';

/**
 * The answer to a login or register call said no (no `success` or no token) without an HTTP error.
 * Its message is the server's, or the helper fallback 'Login failed' / 'Registration failed'.
 */
export class AuthRejectedError extends Error {
  override readonly name = 'AuthRejectedError';
}

function assertAuthenticated(response: Partial<AuthResponse> & { message?: string }, fallback: string): AuthResponse {
  if (response.success && response.token && response.user) return response as AuthResponse;
  throw new AuthRejectedError(response.message || fallback);
}

/** POST /api/auth/login. Resolves with the token and user; rejects with ApiError or AuthRejectedError. */
export async function login(request: LoginRequest): Promise<AuthResponse> {
  return assertAuthenticated(await apiJson<Partial<AuthResponse>>('POST', '/api/auth/login', request), 'Login failed');
}

/** POST /api/auth/register. Resolves with the token and user; rejects with ApiError or AuthRejectedError. */
export async function register(request: RegisterRequest): Promise<AuthResponse> {
  return assertAuthenticated(
    await apiJson<Partial<AuthResponse>>('POST', '/api/auth/register', request),
    'Registration failed',
  );
}

/** GET /api/auth/me: the user behind the stored token. */
export async function fetchMe(): Promise<User> {
  const response = await apiJson<MeResponse>('GET', '/api/auth/me');
  return response.user;
}

/**
 * Completes a successful login or registration: stores the token, caches the user and refreshes the user query.
 */
export async function completeSignIn(queryClient: QueryClient, response: AuthResponse): Promise<void> {
  setToken(response.token);
  queryClient.setQueryData<User>(authMeQueryKey, response.user);
  await queryClient.invalidateQueries({ queryKey: authMeQueryKey });
}

/** Signs out inside the app only: removes the token and every cached query (the user's data among them). */
export function signOutLocally(queryClient: QueryClient): void {
  clearToken();
  queryClient.clear();
}

/**
 * Full logout: signs out locally, then sends the browser to the server's logout endpoint, which revokes the
 * token through the httpOnly cookie it set at login and redirects back to /.
 */
export function logout(queryClient: QueryClient): void {
  signOutLocally(queryClient);
  window.location.assign(LOGOUT_URL);
}

/** The stored token, re-rendering the caller whenever it changes (also from another tab). */
export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null);
}

export interface AuthState {
  /** The signed-in user, or null. */
  user: User | null;
  token: string | null;
  /** A token exists and the user lookup has not answered yet. */
  isLoading: boolean;
  /** Signed in means both a user and a token exist. */
  isAuthenticated: boolean;
  /** The user lookup failed (the shell then signs out locally). */
  isError: boolean;
}

/**
 * The auth state, read from the shared react-query cache: GET /api/auth/me runs only when a token exists,
 * is cached 5 minutes and is not retried. Works in the shell and in every remote, since react-query and this
 * package are shared singletons.
 */
export function useAuth(): AuthState {
  const token = useAuthToken();
  const query = useQuery({
    queryKey: authMeQueryKey,
    queryFn: fetchMe,
    enabled: token !== null,
    staleTime: AUTH_ME_STALE_TIME_MS,
    gcTime: AUTH_ME_STALE_TIME_MS,
    retry: false,
  });
  const user = token !== null ? (query.data ?? null) : null;
  return {
    user,
    token,
    isLoading: token !== null && query.isPending,
    isAuthenticated: token !== null && user !== null,
    isError: query.isError,
  };
}

const tierLabels: Record<SubscriptionTier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

/** The display name of a subscription tier; 'Free' when unknown or absent. */
export function tierLabel(tier: SubscriptionTier | string | null | undefined): string {
  return (tier && tierLabels[tier as SubscriptionTier]) || 'Free';
}
