import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ThemePreset } from './presets';
import {
  clearStoredTheme,
  loadStoredTheme,
  normalizeTheme,
  storeTheme,
  systemDefaultTheme,
  DEFAULT_THEME,
  type ThemeSettings,
} from './themeSettings';
import { COLOR_SCHEMES, type ColorScheme, type ThemeMode } from '@kasa/ui/tokens';

export interface ThemeContextValue {
  settings: ThemeSettings;
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
  toggleMode: () => void;
  setColorScheme: (scheme: ColorScheme) => void;
  applyPreset: (preset: ThemePreset) => void;
  /** Merges a partial change (or a whole imported theme); invalid values are clamped or ignored. */
  update: (change: Partial<ThemeSettings>) => void;
  /** Back to the spec's defaults, and forgets what was stored. */
  reset: () => void;
  /** Applies a theme that came from elsewhere (the server) without marking it as a local change. */
  adopt: (settings: ThemeSettings) => void;
  /** Increases on every change the person makes, so a sync can tell their changes from adopted ones. */
  revision: number;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

function initialTheme(): ThemeSettings {
  const stored = typeof localStorage === 'undefined' ? undefined : loadStoredTheme(localStorage);
  if (stored) return stored;
  return systemDefaultTheme(typeof window === 'undefined' ? undefined : window.matchMedia?.bind(window));
}

/** Puts the theme on <html>: mode and scheme classes (spec section 4), high contrast, motion and the sliders. */
function applyToDocument(settings: ThemeSettings): void {
  const root = document.documentElement;
  root.classList.remove('light', 'dark', 'high-contrast', 'reduce-motion', ...COLOR_SCHEMES.map((s) => `scheme-${s}`));
  root.classList.add(settings.mode, `scheme-${settings.colorScheme}`);
  if (settings.highContrast) root.classList.add('high-contrast');
  if (!settings.animations) root.classList.add('reduce-motion');
  root.style.setProperty('--kasa-radius', `${settings.customSettings.borderRadius}px`);
  root.style.setProperty('--kasa-space', `${settings.customSettings.spacing}px`);
  root.style.setProperty('--kasa-font-size', `${settings.customSettings.fontSize}px`);
  // The page scales by fontSize / default, so the default size keeps the browser's own base size.
  root.style.setProperty(
    '--kasa-font-scale',
    String(settings.customSettings.fontSize / DEFAULT_THEME.customSettings.fontSize),
  );
}

/**
 * The theme of spec sections 3–5, remembered in this browser. A signed-in person's theme also follows them to
 * other browsers: ThemeSync loads and saves it through the auth service.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<ThemeSettings>(initialTheme);
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    applyToDocument(settings);
    storeTheme(localStorage, settings);
  }, [settings]);

  const change = useCallback((next: (current: ThemeSettings) => ThemeSettings) => {
    setSettings((current) => normalizeTheme(next(current), current));
    setRevision((n) => n + 1);
  }, []);

  const adopt = useCallback((adopted: ThemeSettings) => setSettings((current) => normalizeTheme(adopted, current)), []);

  const value = useMemo<ThemeContextValue>(
    () => ({
      settings,
      mode: settings.mode,
      revision,
      setMode: (mode) => change((current) => ({ ...current, mode })),
      toggleMode: () => change((current) => ({ ...current, mode: current.mode === 'dark' ? 'light' : 'dark' })),
      setColorScheme: (colorScheme) => change((current) => ({ ...current, colorScheme })),
      applyPreset: (preset) =>
        change((current) => ({ ...current, mode: preset.mode, colorScheme: preset.colorScheme })),
      update: (partial) =>
        change((current) => ({
          ...current,
          ...partial,
          customSettings: { ...current.customSettings, ...partial.customSettings },
        })),
      reset: () => {
        clearStoredTheme(localStorage);
        change(() => DEFAULT_THEME);
      },
      adopt,
    }),
    [settings, revision, change, adopt],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

/** The theme and its actions. Outside ThemeProvider it throws, as spec section 8 says. */
export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used within a ThemeProvider');
  return value;
}
