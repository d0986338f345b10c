import { ThemeSettings as ThemeSettingsSchema } from '@kasa/contracts';
import { presetsIn, PRESET_CATEGORIES, THEME_PRESETS } from './presets';
import {
  DEFAULT_THEME,
  exportTheme,
  loadStoredTheme,
  normalizeTheme,
  SLIDERS,
  STORAGE_KEYS,
  storeTheme,
  systemDefaultTheme,
  clearStoredTheme,
} from './themeSettings';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('normalizeTheme', () => {
  it('keeps valid settings as they are', () => {
    const theme = {
      mode: 'dark',
      colorScheme: 'neon',
      animations: false,
      highContrast: true,
      customSettings: { borderRadius: 0, spacing: 32, fontSize: 18 },
    } as const;
    expect(normalizeTheme(theme)).toEqual(theme);
  });

  it('clamps sliders to their bounds and steps, and replaces wrong values with the base', () => {
    const result = normalizeTheme({
      mode: 'sepia',
      colorScheme: 'rainbow',
      animations: 'yes',
      customSettings: { borderRadius: 99, spacing: 15, fontSize: -4 },
      extra: '<script>',
    });
    expect(result).toEqual({
      ...DEFAULT_THEME,
      customSettings: { borderRadius: 20, spacing: 16, fontSize: 12 },
    });
    expect(result).not.toHaveProperty('extra');
  });

  it('turns garbage into the defaults', () => {
    expect(normalizeTheme(null)).toEqual(DEFAULT_THEME);
    expect(normalizeTheme('dark')).toEqual(DEFAULT_THEME);
    expect(normalizeTheme({ customSettings: { fontSize: Number.NaN } })).toEqual(DEFAULT_THEME);
  });

  it('produces only what the server accepts', () => {
    for (const input of [{}, { customSettings: { spacing: 9, borderRadius: 3.7 } }, { mode: 'dark' }]) {
      expect(ThemeSettingsSchema.safeParse(normalizeTheme(input)).success).toBe(true);
    }
  });
});

describe('slider bounds', () => {
  it('match the server schema, so a theme the page allows is never refused', () => {
    const shape = ThemeSettingsSchema.shape.customSettings.shape;
    for (const name of ['borderRadius', 'spacing', 'fontSize'] as const) {
      const { min, max } = SLIDERS[name];
      expect(shape[name].safeParse(min).success).toBe(true);
      expect(shape[name].safeParse(max).success).toBe(true);
      expect(shape[name].safeParse(min - 1).success).toBe(false);
      expect(shape[name].safeParse(max + 1).success).toBe(false);
    }
  });
});

describe('first visit', () => {
  it('starts from light, electric with animations when the system says nothing', () => {
    expect(systemDefaultTheme(() => ({ matches: false }))).toEqual(DEFAULT_THEME);
    expect(systemDefaultTheme(undefined)).toEqual(DEFAULT_THEME);
  });

  it('follows the system dark mode and reduced motion', () => {
    const theme = systemDefaultTheme((query) => ({
      matches: query.includes('dark') || query.includes('reduce'),
    }));
    expect(theme.mode).toBe('dark');
    expect(theme.animations).toBe(false);
    expect(theme.colorScheme).toBe('electric');
  });
});

describe('browser storage', () => {
  it('round-trips a theme under the mode, scheme and custom keys', () => {
    const storage = memoryStorage();
    const theme = { ...DEFAULT_THEME, mode: 'dark' as const, colorScheme: 'cyber' as const };
    storeTheme(storage, theme, new Date('2026-01-02T03:04:05Z'));
    expect(storage.items.get(STORAGE_KEYS.mode)).toBe('dark');
    expect(storage.items.get(STORAGE_KEYS.colorScheme)).toBe('cyber');
    expect(JSON.parse(storage.items.get(STORAGE_KEYS.custom)!)).toMatchObject({
      timestamp: '2026-01-02T03:04:05.000Z',
    });
    expect(loadStoredTheme(storage)).toEqual(theme);
  });

  it('says first visit when nothing is stored, and survives corrupt or refused storage', () => {
    const storage = memoryStorage();
    expect(loadStoredTheme(storage)).toBeUndefined();
    storage.setItem(STORAGE_KEYS.custom, '{not json');
    storage.setItem(STORAGE_KEYS.mode, 'dark');
    expect(loadStoredTheme(storage)).toEqual({ ...DEFAULT_THEME, mode: 'dark' });
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(loadStoredTheme(refusing)).toBeUndefined();
    expect(() => storeTheme(refusing, DEFAULT_THEME)).not.toThrow();
    expect(() => clearStoredTheme(refusing)).not.toThrow();
  });

  it('forgets everything on clear', () => {
    const storage = memoryStorage();
    storeTheme(storage, DEFAULT_THEME);
    clearStoredTheme(storage);
    expect(storage.items.size).toBe(0);
  });
});

describe('export and presets', () => {
  it('exports the settings with exportedAt', () => {
    const exported = JSON.parse(exportTheme(DEFAULT_THEME, new Date('2026-05-01T00:00:00Z')));
    expect(exported).toEqual({ ...DEFAULT_THEME, exportedAt: '2026-05-01T00:00:00.000Z' });
  });

  it('has the six presets of the spec, and category counts that add up', () => {
    expect(THEME_PRESETS.map((p) => p.id)).toEqual([
      'professional-light',
      'professional-dark',
      'electric-bright',
      'cyber-dark',
      'neon-dreams',
      'quantum-light',
    ]);
    const counted = PRESET_CATEGORIES.reduce((sum, category) => sum + presetsIn(category).length, 0);
    expect(counted).toBe(presetsIn('All').length);
  });
});
