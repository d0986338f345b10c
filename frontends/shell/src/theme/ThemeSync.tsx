import type { ThemePreferenceResponse } from '@kasa/contracts';
import { apiJson, useAuth } from '@kasa/api-client';
import { useEffect, useRef, useState } from 'react';
import { useTheme } from './ThemeProvider';

export const THEME_PREFERENCE_URL = '/api/auth/preferences/theme';
/** Slider drags change the theme many times a second; the server gets the settled value. */
const SAVE_DELAY_MS = 600;
/** The server could not be reached on sign-in: every later change is saved. */
const NOTHING_SYNCED = -1;

/**
 * Makes a signed-in person's theme follow them between browsers. On sign-in the saved theme wins (that is the
 * point of saving it); an account without one takes this browser's. After that, every change is saved, including
 * one made while the sign-in sync was still under way. Failures only cost the sync: the theme still applies and
 * stays in this browser.
 */
export function ThemeSync() {
  const { user, isAuthenticated } = useAuth();
  const { settings, revision, adopt } = useTheme();
  const userId = isAuthenticated ? user?.id : undefined;
  /**
   * The revision the server is known to have; changes after it are saved. Undefined until the sign-in sync is
   * done. State, not a ref, so that finishing the sync saves a change made during it.
   */
  const [syncedRevision, setSyncedRevision] = useState<number | undefined>(undefined);
  const latest = useRef({ settings, revision });
  latest.current = { settings, revision };

  useEffect(() => {
    setSyncedRevision(undefined);
    if (!userId) return;
    let cancelled = false;
    // What this browser has when the sync starts; a change after this point is saved by the effect below.
    const start = latest.current;
    apiJson<ThemePreferenceResponse>('GET', THEME_PREFERENCE_URL)
      .then(async (saved) => {
        if (cancelled) return;
        // A choice the person made while the saved theme was on its way wins over it, and is saved below.
        const changedMeanwhile = latest.current.revision !== start.revision;
        if (saved.theme && !changedMeanwhile) {
          adopt(saved.theme);
        } else if (!saved.theme) {
          await apiJson<ThemePreferenceResponse>('PUT', THEME_PREFERENCE_URL, start.settings);
        }
        if (!cancelled) setSyncedRevision(start.revision);
      })
      .catch(() => {
        // Offline or the service is down: keep the local theme; the next change tries again.
        if (!cancelled) setSyncedRevision(NOTHING_SYNCED);
      });
    return () => {
      cancelled = true;
    };
  }, [userId, adopt]);

  useEffect(() => {
    if (!userId || syncedRevision === undefined || revision <= syncedRevision) return;
    const timer = setTimeout(() => {
      apiJson<ThemePreferenceResponse>('PUT', THEME_PREFERENCE_URL, settings)
        .then(() => setSyncedRevision((current) => Math.max(current ?? NOTHING_SYNCED, revision)))
        .catch(() => {
          // Left unsynced; the next change retries with the then-current theme.
        });
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [userId, settings, revision, syncedRevision]);

  return null;
}
