import { type ColorScheme, type ThemeMode, themeTokens } from '@kasa/ui/tokens';

export const PRESET_CATEGORIES = ['Professional', 'Creative', 'Minimal', 'Vibrant'] as const;
export type PresetCategory = (typeof PRESET_CATEGORIES)[number];

/** Spec section 3: a named pairing of mode and colour scheme, with preview colours for its card. */
export interface ThemePreset {
  id: string;
  name: string;
  description: string;
  mode: ThemeMode;
  colorScheme: ColorScheme;
  category: PresetCategory;
  preview: { background: string; surface: string; primary: string; accent: string; text: string };
}

function preset(
  id: string,
  name: string,
  description: string,
  mode: ThemeMode,
  colorScheme: ColorScheme,
  category: PresetCategory,
): ThemePreset {
  // Preview colours come from the real tokens, so a card always shows what picking it gives.
  const tokens = themeTokens(mode, colorScheme, false);
  return {
    id,
    name,
    description,
    mode,
    colorScheme,
    category,
    preview: {
      background: tokens['--kasa-bg']!,
      surface: tokens['--kasa-surface']!,
      primary: tokens['--kasa-primary']!,
      accent: tokens['--kasa-accent']!,
      text: tokens['--kasa-fg']!,
    },
  };
}

export const THEME_PRESETS: readonly ThemePreset[] = [
  preset(
    'professional-light',
    'Professional Light',
    'Clean and calm for long working days',
    'light',
    'mono',
    'Professional',
  ),
  preset('professional-dark', 'Professional Dark', 'Low glare, sharp contrast', 'dark', 'mono', 'Professional'),
  preset('electric-bright', 'Electric Bright', 'Kasa’s own indigo and teal', 'light', 'electric', 'Vibrant'),
  preset('cyber-dark', 'Cyber Dark', 'Cyan and lime on deep navy', 'dark', 'cyber', 'Creative'),
  preset('neon-dreams', 'Neon Dreams', 'Pink and violet glow after dark', 'dark', 'neon', 'Vibrant'),
  preset('quantum-light', 'Quantum Light', 'Soft violet with a light touch', 'light', 'quantum', 'Minimal'),
];

/** Presets of one category ('All' for every preset). */
export function presetsIn(category: PresetCategory | 'All'): ThemePreset[] {
  return THEME_PRESETS.filter((p) => category === 'All' || p.category === category);
}
