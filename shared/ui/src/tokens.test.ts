import Color from 'color';
import { COLOR_SCHEMES, themeTokens, type ThemeMode } from './tokens';

const MODES: ThemeMode[] = ['light', 'dark'];

/** Text colour on background colour, as the components pair them. */
const TEXT_PAIRS: Array<[text: string, background: string]> = [
  ['--kasa-fg', '--kasa-bg'],
  ['--kasa-fg', '--kasa-surface'],
  ['--kasa-fg', '--kasa-surface-muted'],
  ['--kasa-muted', '--kasa-bg'],
  ['--kasa-muted', '--kasa-surface'],
  ['--kasa-muted', '--kasa-surface-muted'],
  ['--kasa-primary', '--kasa-bg'],
  ['--kasa-primary', '--kasa-surface'],
  ['--kasa-primary-fg', '--kasa-primary'],
  ['--kasa-accent', '--kasa-surface'],
  ['--kasa-danger', '--kasa-surface'],
  ['--kasa-danger-fg', '--kasa-danger'],
  ['--kasa-success', '--kasa-surface'],
  ['--kasa-warning', '--kasa-surface'],
];

const themes = MODES.flatMap((mode) =>
  COLOR_SCHEMES.flatMap((scheme) => [false, true].map((contrast) => ({ mode, scheme, contrast }))),
);

describe('theme tokens', () => {
  it.each(themes)('$mode $scheme (high contrast: $contrast) meets its contrast ratio', ({ mode, scheme, contrast }) => {
    const tokens = themeTokens(mode, scheme, contrast);
    const minimum = contrast ? 7 : 4.5;
    const failures = TEXT_PAIRS.map(([text, background]) => {
      const ratio = Color(tokens[text as `--kasa-${string}`]).contrast(Color(tokens[background as `--kasa-${string}`]));
      return { pair: `${text} on ${background}`, ratio: Math.round(ratio * 100) / 100 };
    }).filter(({ ratio }) => ratio < minimum);
    expect(failures).toEqual([]);
  });

  it('gives every scheme its own primary colour', () => {
    for (const mode of MODES) {
      const primaries = new Set(COLOR_SCHEMES.map((scheme) => themeTokens(mode, scheme, false)['--kasa-primary']));
      expect(primaries.size).toBe(COLOR_SCHEMES.length);
    }
  });
});
