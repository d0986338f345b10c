import { Global, css } from '@emotion/react';
import { DEFAULT_THEME } from './themeSettings';
import { COLOR_SCHEMES, type ThemeMode, themeSelector, themeTokens, type Tokens } from '@kasa/ui/tokens';

const declarations = (values: Tokens): string =>
  Object.entries(values)
    .map(([name, value]) => `${name}: ${value};`)
    .join('\n');

/** One rule per mode × scheme × contrast; ThemeProvider's classes on <html> pick one. */
const themeRules = (['light', 'dark'] as ThemeMode[])
  .flatMap((mode) =>
    COLOR_SCHEMES.flatMap((scheme) =>
      [false, true].map(
        (contrast) =>
          `${themeSelector(mode, scheme, contrast)} { ${declarations(themeTokens(mode, scheme, contrast))} color-scheme: ${mode}; }`,
      ),
    ),
  )
  .join('\n');

const { borderRadius, spacing, fontSize } = DEFAULT_THEME.customSettings;

const globalStyles = css`
  /* Before the app starts (and without classes) the page uses the default theme. */
  :root {
    ${declarations(themeTokens(DEFAULT_THEME.mode, DEFAULT_THEME.colorScheme, false))}
    --kasa-radius: ${borderRadius}px;
    --kasa-space: ${spacing}px;
    --kasa-font-size: ${fontSize}px;
    color-scheme: light;
  }
  ${themeRules}
  /* The font size slider scales the whole page; its default (14) keeps the browser's own base size. */
  html {
    font-size: calc(var(--kasa-font-scale, 1) * 100%);
  }
  :root.high-contrast a {
    text-decoration-thickness: 2px;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  html {
    -webkit-text-size-adjust: 100%;
  }
  /* Animations off (the theme setting, or the system's reduced motion on a first visit). */
  :root.reduce-motion *,
  :root.reduce-motion *::before,
  :root.reduce-motion *::after {
    animation-duration: 0.01ms !important;
    animation-iteration-count: 1 !important;
    transition-duration: 0.01ms !important;
    scroll-behavior: auto !important;
  }
  body {
    margin: 0;
    min-height: 100vh;
    background: var(--kasa-bg);
    color: var(--kasa-fg);
    font-family:
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      'Noto Sans',
      'Helvetica Neue',
      Arial,
      sans-serif;
    font-size: 1rem;
    line-height: 1.5;
  }
  #root {
    min-height: 100vh;
    display: flex;
    flex-direction: column;
  }
  a {
    color: var(--kasa-primary);
  }
  /* One visible focus ring for every control, in the shell and in every remote. */
  :focus-visible {
    outline: 3px solid var(--kasa-focus);
    outline-offset: 2px;
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      transition-duration: 0.01ms !important;
    }
  }
`;

export function GlobalStyles() {
  return <Global styles={globalStyles} />;
}
