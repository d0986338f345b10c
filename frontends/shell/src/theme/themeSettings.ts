import { COLOR_SCHEMES, type ColorScheme, type ThemeMode } from '@kasa/ui/tokens';

/** Spec section 3: the theme settings a person can change, as exported to a file and kept on the server. */
export interface ThemeSettings {
  mode: ThemeMode;
  colorScheme: ColorScheme;
  animations: boolean;
  highContrast: boolean;
  customSettings: { borderRadius: number; spacing: number; fontSize: number };
}

/**
 * Slider bounds of spec section 5. The server validates the same bounds (ThemeSettings in @kasa/contracts);
 * themeSettings.test.ts fails if the two drift apart. (The shell does not import zod: it would double the bundle.)
 */
export const SLIDERS = {
  borderRadius: { min: 0, max: 20, step: 1, unit: 'px', label: 'Border radius' },
  spacing: { min: 8, max: 32, step: 2, unit: 'px', label: 'Spacing' },
  fontSize: { min: 12, max: 18, step: 1, unit: 'px', label: 'Font size' },
} as const;
export type SliderName = keyof typeof SLIDERS;

/** Spec section 4: Reset returns to light and electric, animations on, high contrast off, 8 / 16 / 14. */
export const DEFAULT_THEME: ThemeSettings = {
  mode: 'light',
  colorScheme: 'electric',
  animations: true,
  highContrast: false,
  customSettings: { borderRadius: 8, spacing: 16, fontSize: 14 },
};

/** Browser storage keys (spec section 3: separate keys for the mode, the colour scheme and the custom theme). */
export const STORAGE_KEYS = {
  mode: 'kasa_theme_mode',
  colorScheme: 'kasa_color_scheme',
  custom: 'kasa_custom_theme',
} as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function clampToStep(value: unknown, name: SliderName, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  const { min, max, step } = SLIDERS[name];
  const stepped = min + Math.round((value - min) / step) * step;
  return Math.min(max, Math.max(min, stepped));
}

/**
 * Turns anything (a stored value, a server answer, an imported file) into valid settings: unknown fields are
 * dropped, out-of-range numbers are clamped to the nearest step, and whatever is missing or wrong takes `base`'s value.
 */
export function normalizeTheme(input: unknown, base: ThemeSettings = DEFAULT_THEME): ThemeSettings {
  const value = isRecord(input) ? input : {};
  const custom = isRecord(value.customSettings) ? value.customSettings : {};
  return {
    mode: value.mode === 'dark' || value.mode === 'light' ? value.mode : base.mode,
    colorScheme: COLOR_SCHEMES.includes(value.colorScheme as ColorScheme)
      ? (value.colorScheme as ColorScheme)
      : base.colorScheme,
    animations: typeof value.animations === 'boolean' ? value.animations : base.animations,
    highContrast: typeof value.highContrast === 'boolean' ? value.highContrast : base.highContrast,
    customSettings: {
      borderRadius: clampToStep(custom.borderRadius, 'borderRadius', base.customSettings.borderRadius),
      spacing: clampToStep(custom.spacing, 'spacing', base.customSettings.spacing),
      fontSize: clampToStep(custom.fontSize, 'fontSize', base.customSettings.fontSize),
    },
  };
}

/** What a first visit starts from: the spec's defaults, adjusted to the system's dark mode and reduced motion. */
export function systemDefaultTheme(matchMedia: ((query: string) => { matches: boolean }) | undefined): ThemeSettings {
  const prefers = (query: string) => Boolean(matchMedia?.(query).matches);
  return {
    ...DEFAULT_THEME,
    mode: prefers('(prefers-color-scheme: dark)') ? 'dark' : 'light',
    animations: !prefers('(prefers-reduced-motion: reduce)'),
    highContrast: prefers('(prefers-contrast: more)'),
  };
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function readJson(storage: StorageLike, key: string): unknown {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads the saved theme, or undefined on a first visit. Storage that throws (private modes) counts as empty. */
export function loadStoredTheme(storage: StorageLike): ThemeSettings | undefined {
  try {
    const mode = storage.getItem(STORAGE_KEYS.mode);
    const colorScheme = storage.getItem(STORAGE_KEYS.colorScheme);
    const custom = readJson(storage, STORAGE_KEYS.custom);
    if (mode === null && colorScheme === null && custom === undefined) return undefined;
    return normalizeTheme({
      ...(isRecord(custom) ? custom : {}),
      ...(mode ? { mode } : {}),
      ...(colorScheme ? { colorScheme } : {}),
    });
  } catch {
    return undefined;
  }
}

/** Saves the theme; the custom entry also carries a timestamp, as spec section 3's saved custom theme does. */
export function storeTheme(storage: StorageLike, settings: ThemeSettings, now: Date = new Date()): void {
  try {
    storage.setItem(STORAGE_KEYS.mode, settings.mode);
    storage.setItem(STORAGE_KEYS.colorScheme, settings.colorScheme);
    storage.setItem(STORAGE_KEYS.custom, JSON.stringify({ ...settings, timestamp: now.toISOString() }));
  } catch {
    // Storage may be full or refused; the theme still applies for this visit.
  }
}

export function clearStoredTheme(storage: StorageLike): void {
  try {
    for (const key of Object.values(STORAGE_KEYS)) storage.removeItem(key);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The exported file's content (spec section 3: the settings plus exportedAt). */
export function exportTheme(settings: ThemeSettings, now: Date = new Date()): string {
  return `${JSON.stringify({ ...settings, exportedAt: now.toISOString() }, null, 2)}\n`;
}

export function sameTheme(a: ThemeSettings, b: ThemeSettings): boolean {
  return (
    a.mode === b.mode &&
    a.colorScheme === b.colorScheme &&
    a.animations === b.animations &&
    a.highContrast === b.highContrast &&
    a.customSettings.borderRadius === b.customSettings.borderRadius &&
    a.customSettings.spacing === b.customSettings.spacing &&
    a.customSettings.fontSize === b.customSettings.fontSize
  );
}
