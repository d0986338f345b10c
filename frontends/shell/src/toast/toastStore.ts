import { useSyncExternalStore } from 'react';

/** Spec section 9: one toast at a time; a dismissed toast is removed 1,000,000 ms later (unless replaced). */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** Spec section 9: default display time. */
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastOptions {
  id: number;
  open: boolean;
}

let nextId = 0;
let items: readonly ToastItem[] = [];
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: readonly ToastItem[]): void {
  items = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: number): void {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    emit(items.filter((item) => item.id !== id));
  }, TOAST_REMOVE_DELAY_MS);
  removalTimers.set(id, timer);
}

/** Closes a toast (it animates out); it leaves the list later or when a new toast replaces it. */
export function dismissToast(id: number): void {
  emit(items.map((item) => (item.id === id ? { ...item, open: false } : item)));
  scheduleRemoval(id);
}

/** Shows a toast, replacing the current one. */
export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  const id = ++nextId;
  const next = [{ ...options, id, open: true }, ...items];
  for (const dropped of next.slice(TOAST_LIMIT)) {
    const timer = removalTimers.get(dropped.id);
    if (timer) clearTimeout(timer);
    removalTimers.delete(dropped.id);
  }
  emit(next.slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
}
