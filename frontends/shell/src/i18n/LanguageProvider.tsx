import type { LanguagePreferenceResponse } from '@kasa/contracts';
import { apiJson, useAuth } from '@kasa/api-client';
import { CatalogueProvider, applyDocumentLocale, initialLocale, isLocale, storeLocale, type Locale } from '@kasa/i18n';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SHELL_ENGLISH, SHELL_LOADERS } from './catalogues';

export const LANGUAGE_PREFERENCE_URL = '/api/auth/preferences/language';

interface LanguageState {
  locale: Locale;
  /** Picks the interface language: kept in this browser, and in the account when signed in. */
  setLocale: (locale: Locale) => void;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage needs a LanguageProvider');
  return state;
}

/**
 * The interface language of the whole web app. It starts from this browser's stored choice, else the browser's
 * own languages (what it sends as Accept-Language), else English; on sign-in the account's saved language wins,
 * and an account without one takes this browser's. `lang` and `dir` on <html> follow it. The shell's messages
 * provider is the one every remote reads the locale from (@kasa/i18n is a shared singleton).
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const { user, isAuthenticated } = useAuth();
  const userId = isAuthenticated ? user?.id : undefined;
  const latest = useRef(locale);
  latest.current = locale;

  useEffect(() => applyDocumentLocale(locale), [locale]);

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    apiJson<LanguagePreferenceResponse>('GET', LANGUAGE_PREFERENCE_URL)
      .then(async (saved) => {
        if (cancelled) return;
        if (saved.language && isLocale(saved.language)) {
          storeLocale(saved.language);
          setLocaleState(saved.language);
        } else {
          await apiJson('PUT', LANGUAGE_PREFERENCE_URL, { language: latest.current });
        }
      })
      .catch(() => {
        // Offline or the service is down: this browser's language stays; the next pick tries again.
      });
    return () => {
      cancelled = true;
    };
  }, [userId]);

  const setLocale = useCallback(
    (next: Locale) => {
      setLocaleState(next);
      storeLocale(next);
      if (userId) {
        apiJson('PUT', LANGUAGE_PREFERENCE_URL, { language: next }).catch(() => {
          // Kept in this browser; the account gets it with the next pick.
        });
      }
    },
    [userId],
  );

  const state = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return (
    <LanguageContext.Provider value={state}>
      <CatalogueProvider locale={locale} english={SHELL_ENGLISH} loaders={SHELL_LOADERS}>
        {children}
      </CatalogueProvider>
    </LanguageContext.Provider>
  );
}
