import type { ThemePreferenceResponse } from '@kasa/contracts';
import { apiJson, useAuth } from '@kasa/api-client';
import { useEffect, useRef } from 'react';
import { useTheme } from './ThemeProvider';

export const THEME_PREFERENCE_URL = '/api/auth/preferences/theme';
/** Slider drags change the theme many times a second; the server gets the settled value. */
const SAVE_DELAY_MS = 600;

/**
 * Makes a signed-in person's theme follow them between browsers. On sign-in the saved theme wins (that is the
 * point of saving it); an account without one takes this browser's. After that, every change is saved.
 * Failures only cost the sync: the theme still applies and stays in this browser.
 */
export function ThemeSync() {
  const { user, isAuthenticated } = useAuth();
  const { settings, revision, adopt } = useTheme();
  const userId = isAuthenticated ? user?.id : undefined;
  /** The revision the server is known to have; changes after it are saved. Undefined until loaded. */
  const syncedRevision = useRef<number | undefined>(undefined);
  const latest = useRef({ settings, revision });
  latest.current = { settings, revision };

  useEffect(() => {
    syncedRevision.current = undefined;
    if (!userId) return;
    let cancelled = false;
    apiJson<ThemePreferenceResponse>('GET', THEME_PREFERENCE_URL)
      .then(async (saved) => {
        if (cancelled) return;
        if (saved.theme) {
          adopt(saved.theme);
        } else {
          await apiJson<ThemePreferenceResponse>('PUT', THEME_PREFERENCE_URL, latest.current.settings);
        }
        if (!cancelled) syncedRevision.current = latest.current.revision;
      })
      .catch(() => {
        // Offline or the service is down: keep the local theme; the next change tries again.
        if (!cancelled) syncedRevision.current = -1;
      });
    return () => {
      cancelled = true;
    };
  }, [userId, adopt]);

  useEffect(() => {
    if (!userId || syncedRevision.current === undefined || revision <= syncedRevision.current) return;
    const timer = setTimeout(() => {
      apiJson<ThemePreferenceResponse>('PUT', THEME_PREFERENCE_URL, settings)
        .then(() => {
          syncedRevision.current = revision;
        })
        .catch(() => {
          // Left unsynced; the next change retries with the then-current theme.
        });
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [userId, settings, revision]);

  return null;
}
