/**
 * Design tokens as CSS custom properties, so every micro-frontend picks up light/dark mode without sharing a
 * theme object: remotes style with `var(--kasa-…)`. Text/background pairs meet WCAG AA (4.5:1) or better.
 */
export type ThemeMode = 'light' | 'dark';

export type Tokens = Record<`--kasa-${string}`, string>;

export const tokens: Record<ThemeMode, Tokens> = {
  light: {
    '--kasa-bg': '#f8fafc',
    '--kasa-surface': '#ffffff',
    '--kasa-surface-muted': '#eef2f7',
    '--kasa-fg': '#0f172a',
    '--kasa-muted': '#475569',
    '--kasa-border': '#cbd5e1',
    '--kasa-primary': '#4338ca',
    '--kasa-primary-fg': '#ffffff',
    '--kasa-accent': '#0f766e',
    '--kasa-danger': '#b91c1c',
    '--kasa-danger-fg': '#ffffff',
    '--kasa-success': '#15803d',
    '--kasa-focus': '#1d4ed8',
    '--kasa-shadow': '0 10px 30px rgba(15, 23, 42, 0.12)',
  },
  dark: {
    '--kasa-bg': '#0b1120',
    '--kasa-surface': '#111a2e',
    '--kasa-surface-muted': '#1b2740',
    '--kasa-fg': '#f1f5f9',
    '--kasa-muted': '#cbd5e1',
    '--kasa-border': '#334155',
    '--kasa-primary': '#a5b4fc',
    '--kasa-primary-fg': '#111827',
    '--kasa-accent': '#5eead4',
    '--kasa-danger': '#fca5a5',
    '--kasa-danger-fg': '#450a0a',
    '--kasa-success': '#86efac',
    '--kasa-focus': '#93c5fd',
    '--kasa-shadow': '0 10px 30px rgba(0, 0, 0, 0.45)',
  },
};

export const radius = '8px';
