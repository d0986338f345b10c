import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '@kasa/api-client';
import { chatKeys, deleteSession, fetchSession } from './chatApi';
import { dropFromSessionList, invalidateSessionList } from './chatQueries';

/**
 * A new chat's session is created when its first message is sent, one request before the message itself. Until the
 * message is stored the session is "pending": the sidebar does not list it, and if the message never arrives (the
 * page was reloaded or closed in between, or the send failed and the person moved on) the empty session is deleted.
 * The ids are kept in localStorage so that the next page load can finish the job.
 */
const STORAGE_KEY = 'kasa.chat.pendingSessions';
/** Enough for any number of tabs; older ids fall off. */
const MAX_PENDING = 20;

/** Sessions whose first message this page is sending right now: never swept from under it. */
const sending = new Set<string>();

function read(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function write(ids: string[]): void {
  try {
    if (ids.length > 0) localStorage.setItem(STORAGE_KEY, JSON.stringify(ids.slice(-MAX_PENDING)));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be unavailable (private mode, quota): the session is then listed as before, empty or not.
  }
}

/** The sessions created for a first message that has not been stored yet. */
export const pendingSessionIds = (): ReadonlySet<string> => new Set(read());

/** A session was just created for a first message that is about to be sent. */
export function markPending(id: string): void {
  sending.add(id);
  write([...read().filter((other) => other !== id), id]);
}

/** The first message is stored (the session is a real conversation now), or the session is gone. */
export function settlePending(id: string): void {
  sending.delete(id);
  write(read().filter((other) => other !== id));
}

/** This page stopped sending to the session (the send failed or was left); it stays pending until swept. */
export function stopSending(id: string): void {
  sending.delete(id);
}

/**
 * Resolves pending sessions (all of them, or `only`): an empty one is deleted, one that holds messages after all
 * (its first message arrived just before the page went) is listed. A session that cannot be checked now (offline)
 * stays pending for the next time.
 */
export async function sweepPendingSessions(queryClient: QueryClient, only?: string): Promise<void> {
  const ids = read().filter((id) => !sending.has(id) && (only === undefined || id === only));
  for (const id of ids) {
    try {
      const session = await fetchSession(id, null);
      if (session.messages.length === 0) {
        await deleteSession(id);
        settlePending(id);
        dropFromSessionList(queryClient, id);
        queryClient.removeQueries({ queryKey: chatKeys.session(id) });
      } else {
        settlePending(id);
        invalidateSessionList(queryClient);
      }
    } catch (error) {
      if (isApiError(error) && error.status === 404) {
        settlePending(id);
        dropFromSessionList(queryClient, id);
      }
    }
  }
}
