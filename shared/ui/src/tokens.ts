/**
 * Design tokens as CSS custom properties, so every micro-frontend follows the theme without sharing a theme
 * object: remotes style with `var(--kasa-…)`. The root element carries the mode (`light`/`dark`), the colour
 * scheme (`scheme-electric`…) and `high-contrast`; each combination resolves to one token set below.
 * Every text/background pair meets WCAG AA (4.5:1), and 7:1 (AAA) in high contrast: tokens.test.ts checks it.
 */
export type ThemeMode = 'light' | 'dark';
export const COLOR_SCHEMES = ['electric', 'cyber', 'neon', 'quantum', 'mono'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

export type Tokens = Record<`--kasa-${string}`, string>;

/** What changes with the mode alone: surfaces, text, borders and status colours. */
const base: Record<ThemeMode, Tokens> = {
  light: {
    '--kasa-bg': '#f8fafc',
    '--kasa-surface': '#ffffff',
    '--kasa-surface-muted': '#eef2f7',
    '--kasa-fg': '#0f172a',
    '--kasa-muted': '#475569',
    '--kasa-border': '#cbd5e1',
    '--kasa-danger': '#b91c1c',
    '--kasa-danger-fg': '#ffffff',
    '--kasa-success': '#15803d',
    '--kasa-warning': '#a16207',
    '--kasa-shadow': '0 10px 30px rgba(15, 23, 42, 0.12)',
  },
  dark: {
    '--kasa-bg': '#0b1120',
    '--kasa-surface': '#111a2e',
    '--kasa-surface-muted': '#1b2740',
    '--kasa-fg': '#f1f5f9',
    '--kasa-muted': '#cbd5e1',
    '--kasa-border': '#334155',
    '--kasa-danger': '#fca5a5',
    '--kasa-danger-fg': '#450a0a',
    '--kasa-success': '#86efac',
    '--kasa-warning': '#fcd34d',
    '--kasa-shadow': '0 10px 30px rgba(0, 0, 0, 0.45)',
  },
};

interface SchemeColors {
  primary: string;
  accent: string;
  focus: string;
}

/** What the colour scheme changes: the brand colours. Light schemes use dark brand colours, and the reverse. */
const schemes: Record<ColorScheme, Record<ThemeMode, SchemeColors>> = {
  electric: {
    light: { primary: '#4338ca', accent: '#0f766e', focus: '#1d4ed8' },
    dark: { primary: '#a5b4fc', accent: '#5eead4', focus: '#93c5fd' },
  },
  cyber: {
    light: { primary: '#0e7490', accent: '#4d7c0f', focus: '#0369a1' },
    dark: { primary: '#67e8f9', accent: '#bef264', focus: '#7dd3fc' },
  },
  neon: {
    light: { primary: '#be185d', accent: '#7e22ce', focus: '#a21caf' },
    dark: { primary: '#f9a8d4', accent: '#d8b4fe', focus: '#f0abfc' },
  },
  quantum: {
    light: { primary: '#6d28d9', accent: '#0369a1', focus: '#5b21b6' },
    dark: { primary: '#c4b5fd', accent: '#7dd3fc', focus: '#ddd6fe' },
  },
  mono: {
    light: { primary: '#27272a', accent: '#52525b', focus: '#18181b' },
    dark: { primary: '#e4e4e7', accent: '#a1a1aa', focus: '#fafafa' },
  },
};

/** High contrast: pure black on white (or the reverse), solid borders, and brand colours darkened to 7:1. */
const highContrast: Record<ThemeMode, Tokens> = {
  light: {
    '--kasa-bg': '#ffffff',
    '--kasa-surface': '#ffffff',
    '--kasa-surface-muted': '#f1f1f1',
    '--kasa-fg': '#000000',
    '--kasa-muted': '#1f2937',
    '--kasa-border': '#000000',
    '--kasa-danger': '#7f1d1d',
    '--kasa-success': '#14532d',
    '--kasa-warning': '#713f12',
  },
  dark: {
    '--kasa-bg': '#000000',
    '--kasa-surface': '#000000',
    '--kasa-surface-muted': '#171717',
    '--kasa-fg': '#ffffff',
    '--kasa-muted': '#e5e7eb',
    '--kasa-border': '#ffffff',
    '--kasa-danger': '#fecaca',
    '--kasa-success': '#bbf7d0',
    '--kasa-warning': '#fde68a',
  },
};

const highContrastSchemes: Record<ColorScheme, Record<ThemeMode, string>> = {
  electric: { light: '#312e81', dark: '#c7d2fe' },
  cyber: { light: '#164e63', dark: '#a5f3fc' },
  neon: { light: '#831843', dark: '#fbcfe8' },
  quantum: { light: '#4c1d95', dark: '#ddd6fe' },
  mono: { light: '#000000', dark: '#ffffff' },
};

/** The full token set of one theme. */
export function themeTokens(mode: ThemeMode, scheme: ColorScheme, contrast: boolean): Tokens {
  const brand = schemes[scheme][mode];
  const primaryFg = mode === 'light' ? '#ffffff' : '#111827';
  const tokens: Tokens = {
    ...base[mode],
    '--kasa-primary': brand.primary,
    '--kasa-primary-fg': primaryFg,
    '--kasa-accent': brand.accent,
    '--kasa-focus': brand.focus,
  };
  if (!contrast) return tokens;
  const strong = highContrastSchemes[scheme][mode];
  return {
    ...tokens,
    ...highContrast[mode],
    '--kasa-primary': strong,
    '--kasa-primary-fg': mode === 'light' ? '#ffffff' : '#000000',
    '--kasa-accent': strong,
    '--kasa-focus': strong,
  };
}

/** The CSS selector of the root element for one theme, as ThemeProvider sets its classes. */
export function themeSelector(mode: ThemeMode, scheme: ColorScheme, contrast: boolean): string {
  return `:root.${mode}.scheme-${scheme}${contrast ? '.high-contrast' : ''}`;
}
