import { Global, css } from '@emotion/react';

// A light-mode copy of the shell's design tokens (shared/ui/src/tokens.ts), only for running alone.
// In the product the shell defines these variables for every mode, scheme and contrast setting.
const standalone = css`
  :root {
    --kasa-bg: #f8fafc;
    --kasa-surface: #ffffff;
    --kasa-surface-muted: #eef2f7;
    --kasa-fg: #0f172a;
    --kasa-muted: #475569;
    --kasa-border: #cbd5e1;
    --kasa-danger: #b91c1c;
    --kasa-danger-fg: #ffffff;
    --kasa-success: #15803d;
    --kasa-warning: #a16207;
    --kasa-primary: #4338ca;
    --kasa-primary-fg: #ffffff;
    --kasa-accent: #0f766e;
    --kasa-focus: #1d4ed8;
    --kasa-radius: 8px;
    --kasa-shadow: 0 10px 30px rgba(15, 23, 42, 0.12);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  body {
    margin: 0;
    background: var(--kasa-bg);
    color: var(--kasa-fg);
    font-family:
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      'Noto Sans',
      sans-serif;
    line-height: 1.5;
  }
  :focus-visible {
    outline: 3px solid var(--kasa-focus);
    outline-offset: 2px;
  }
`;

export function StandaloneStyles() {
  return <Global styles={standalone} />;
}
