import { useEffect, useRef, useState } from 'react';

/** How long a Refresh button spins at least (spec section 9: Refresh spinner 1 s). */
export const REFRESH_SPINNER_MS = 1_000;

/**
 * A Refresh button's state: `refresh()` runs `refetch` and keeps `refreshing` true for at least a second (and
 * until the refetch has settled), so the spinner is seen even when the answer is instant.
 */
export function useRefresh(refetch: () => Promise<unknown>) {
  const [refreshing, setRefreshing] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const refresh = async () => {
    setRefreshing(true);
    const minimum = new Promise((resolve) => setTimeout(resolve, REFRESH_SPINNER_MS));
    await Promise.allSettled([refetch(), minimum]);
    if (mounted.current) setRefreshing(false);
  };
  return { refreshing, refresh };
}
