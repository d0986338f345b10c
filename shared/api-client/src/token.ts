/** localStorage key that holds the bearer token of the signed-in user. */
export const TOKEN_STORAGE_KEY = 'kasa_auth_token';

type Listener = () => void;
const listeners = new Set<Listener>();

/** localStorage when it exists and is usable (absent in Node; throws in some private modes). */
function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** The stored bearer token, or null when signed out. */
export function getToken(): string | null {
  try {
    return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Stores the bearer token and tells every subscriber (e.g. `useAuthToken`). */
export function setToken(token: string): void {
  try {
    storage()?.setItem(TOKEN_STORAGE_KEY, token);
  } finally {
    notify();
  }
}

/** Removes the bearer token and tells every subscriber. Safe to call when no token is stored. */
export function clearToken(): void {
  const hadToken = getToken() !== null;
  try {
    storage()?.removeItem(TOKEN_STORAGE_KEY);
  } finally {
    if (hadToken) notify();
  }
}

/**
 * Calls `listener` whenever the token changes, in this tab or (through the `storage` event) in another one.
 * Returns the unsubscribe function; shaped for React's `useSyncExternalStore`.
 */
export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY) listener();
  };
  const canListen = typeof window !== 'undefined' && typeof window.addEventListener === 'function';
  if (canListen) window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (canListen) window.removeEventListener('storage', onStorage);
  };
}
