import styled from '@emotion/styled';
import { css } from '@emotion/react';

// Building blocks of the developer portal. Colours come from the shell's CSS variables (`--kasa-*`), so every theme,
// dark mode and high contrast apply without sharing a theme object.

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const variants: Record<ButtonVariant, string> = {
  primary: 'background: var(--kasa-primary); color: var(--kasa-primary-fg); border-color: var(--kasa-primary);',
  secondary: 'background: transparent; color: var(--kasa-fg); border-color: var(--kasa-primary);',
  ghost: 'background: transparent; color: var(--kasa-fg); border-color: transparent;',
  danger: 'background: var(--kasa-danger); color: var(--kasa-danger-fg, #fff); border-color: var(--kasa-danger);',
};

const notStyleProp = (prop: string) => prop !== 'variant' && prop !== 'compact';

export const Button = styled('button', { shouldForwardProp: notStyleProp })<{
  variant?: ButtonVariant;
  compact?: boolean;
}>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.375rem;
  min-height: ${({ compact }) => (compact ? '2rem' : '2.75rem')};
  padding: ${({ compact }) => (compact ? '0.125rem 0.625rem' : '0.5rem 1rem')};
  border: 2px solid;
  border-radius: var(--kasa-radius);
  font: inherit;
  font-weight: 600;
  font-size: ${({ compact }) => (compact ? '0.875rem' : 'inherit')};
  cursor: pointer;
  ${({ variant = 'primary' }) => variants[variant]}
  &:hover:not(:disabled) {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

export const visuallyHidden = css`
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border: 0;
`;

export const VisuallyHidden = styled.span`
  ${visuallyHidden}
`;

/** A label that only screen readers see (the field's purpose is clear from its placeholder and place). */
export const HiddenLabel = styled.label`
  ${visuallyHidden}
`;

export const Muted = styled.p`
  margin: 0;
  color: var(--kasa-muted);
`;

export const TextInput = styled.input`
  width: 100%;
  min-height: 2.5rem;
  padding: 0.375rem 0.625rem;
  border: 1px solid var(--kasa-muted);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
`;

export const Select = styled.select`
  min-height: 2.25rem;
  padding: 0.25rem 0.5rem;
  border: 1px solid var(--kasa-muted);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
  font-size: 0.875rem;
`;

/** An inline error with its action (Retry), announced when it appears. */
export const InlineError = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
  padding: 0.5rem 0.75rem;
  border: 1px solid var(--kasa-danger);
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  background: var(--kasa-surface);
  p {
    margin: 0;
    flex: 1 1 12rem;
  }
`;

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

export const Label = styled.label`
  display: block;
  margin: 0 0 0.25rem;
  font-weight: 600;
`;

export const TextArea = styled.textarea`
  width: 100%;
  min-height: 8rem;
  padding: 0.5rem 0.625rem;
  border: 1px solid var(--kasa-muted);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.875rem;
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
