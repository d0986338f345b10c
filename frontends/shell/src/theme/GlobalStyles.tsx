import { Global, css } from '@emotion/react';
import { radius, tokens, type Tokens } from './tokens';

const declarations = (values: Tokens): string =>
  Object.entries(values)
    .map(([name, value]) => `${name}: ${value};`)
    .join('\n');

const globalStyles = css`
  :root,
  :root.light {
    ${declarations(tokens.light)}
    --kasa-radius: ${radius};
    color-scheme: light;
  }
  :root.dark {
    ${declarations(tokens.dark)}
    color-scheme: dark;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  html {
    -webkit-text-size-adjust: 100%;
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
    font-size: 16px;
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
