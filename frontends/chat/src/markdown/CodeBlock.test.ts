import { themeTokens } from '@kasa/ui/tokens';
import { CODE_COLOURS } from './CodeBlock';

/** WCAG's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG's contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('code token colours', () => {
  it.each(['light', 'dark'] as const)('meet 4.5:1 on the code background and the reply in %s mode', (mode) => {
    // The code sits on --kasa-surface-muted, inside a reply on --kasa-surface; the colour scheme does not change them.
    const tokens = themeTokens(mode, 'electric', false);
    const failures = Object.entries(CODE_COLOURS[mode]).flatMap(([name, colour]) =>
      (['--kasa-surface-muted', '--kasa-surface'] as const)
        .map((background) => ({
          pair: `${name} on ${background}`,
          ratio: Math.round(contrast(colour, tokens[background]!) * 100) / 100,
        }))
        .filter(({ ratio }) => ratio < 4.5),
    );
    expect(failures).toEqual([]);
  });

  it('gives light and dark a colour for the same tokens', () => {
    expect(Object.keys(CODE_COLOURS.dark)).toEqual(Object.keys(CODE_COLOURS.light));
  });
});
