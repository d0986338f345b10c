import styled from '@emotion/styled';

// The developer portal's own building blocks: panels, grids, badges and code blocks. Buttons, inputs, dialogs and
// the rest of the design system come from @kasa/ui; colours from the shell's CSS variables (`--kasa-*`).

/** A panel of the portal (a key, a chart, a service): flat, unlike @kasa/ui's raised page Card. */
export const Card = styled.section`
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  min-width: 0;
  h2,
  h3 {
    margin: 0 0 0.75rem;
    font-size: 1.125rem;
  }
`;

/** Cards side by side where there is room, stacked on a phone. */
export const Grid = styled.div<{ min?: string }>`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, ${({ min = '16rem' }) => min}), 1fr));
  gap: 1rem;
`;

export const Badge = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  padding: 0.125rem 0.625rem;
  border: 1px solid var(--kasa-border);
  border-radius: 999px;
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font-size: 0.875rem;
  font-weight: 600;
  white-space: nowrap;
`;

export const Code = styled.pre`
  margin: 0;
  padding: 0.75rem 1rem;
  overflow-x: auto;
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
  color: var(--kasa-fg);
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.8125rem;
  line-height: 1.5;
  white-space: pre;
`;

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
`;

/** A small spinning ring; decorative (the button or text beside it says what is going on). */
export const Spinner = styled.span`
  display: inline-block;
  width: 1em;
  height: 1em;
  border: 2px solid currentColor;
  border-right-color: transparent;
  border-radius: 50%;
  animation: kasa-developer-spin 0.8s linear infinite;
  @keyframes kasa-developer-spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    animation-duration: 2.4s;
  }
`;
