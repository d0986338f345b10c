import { TOAST_REMOVE_DELAY_MS, dismissToast, toast, useToasts } from './toastStore';

// Outside React, the hook's external store is read directly: useSyncExternalStore returns the snapshot.
jest.mock('react', () => ({
  useSyncExternalStore: (_subscribe: unknown, getSnapshot: () => unknown) => getSnapshot(),
}));

describe('toast store', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows one toast at a time: a new toast replaces the current one', () => {
    toast({ title: 'Password Mismatch', description: 'Passwords do not match', variant: 'destructive' });
    toast({ title: 'Weak Password', description: 'Password must be at least 6 characters long' });
    const toasts = useToasts();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ title: 'Weak Password', open: true });
  });

  it('closes a dismissed toast at once and removes it after the removal delay', () => {
    const { id } = toast({ title: 'Missing Information', description: 'Please fill in all fields' });
    dismissToast(id);
    expect(useToasts()).toEqual([expect.objectContaining({ id, open: false })]);
    jest.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(useToasts()).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(useToasts()).toHaveLength(0);
  });
});
