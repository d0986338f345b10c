import styled from '@emotion/styled';
import { css } from '@emotion/react';
import { Link } from 'react-router-dom';

// The web app's buttons, inputs and page layout. Colours come from the shell's CSS variables (`--kasa-*`, see
// tokens.ts), so every theme, dark mode and high contrast apply in the shell and in every remote alike.

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

/**
 * Where people tap rather than click: a phone held upright (640 px and narrower) or any screen whose main pointer is a
 * finger. There every control is a touch target of at least {@link TOUCH_TARGET} in both directions.
 */
export const TOUCH_MEDIA = '@media (max-width: 40rem), (pointer: coarse)';

/** The smallest comfortable touch target (WCAG 2.5.5, Apple's and Google's guidelines): 44 CSS px. */
export const TOUCH_TARGET = '2.75rem';

const variants: Record<ButtonVariant, string> = {
  primary: 'background: var(--kasa-primary); color: var(--kasa-primary-fg); border-color: var(--kasa-primary);',
  secondary: 'background: transparent; color: var(--kasa-fg); border-color: var(--kasa-primary);',
  ghost: 'background: transparent; color: var(--kasa-fg); border-color: transparent;',
  danger: 'background: var(--kasa-danger); color: var(--kasa-danger-fg, #fff); border-color: var(--kasa-danger);',
};

interface ButtonStyle {
  /** The button's weight: primary (the page's main action) by default. */
  variant?: ButtonVariant;
  /** A smaller button, for toolbars, rows and menus. */
  compact?: boolean;
}

const buttonStyle = ({ variant = 'primary', compact }: ButtonStyle) => css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.375rem;
  min-height: ${compact ? '2rem' : '2.75rem'};
  padding: ${compact ? '0.125rem 0.625rem' : '0.5rem 1rem'};
  border: 2px solid;
  border-radius: var(--kasa-radius);
  font: inherit;
  font-weight: 600;
  font-size: ${compact ? '0.875rem' : 'inherit'};
  text-decoration: none;
  cursor: pointer;
  ${variants[variant]}
  &:hover:not(:disabled) {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  /* A compact button is compact for a mouse; under a finger it is as big as any other. */
  ${TOUCH_MEDIA} {
    min-height: ${TOUCH_TARGET};
    min-width: ${TOUCH_TARGET};
  }
`;

// `variant` and `compact` style the element; they are not attributes of the DOM element.
const notStyleProp = (prop: string) => prop !== 'variant' && prop !== 'compact';

/** A real button, for actions. */
export const Button = styled('button', { shouldForwardProp: notStyleProp })<ButtonStyle>(buttonStyle);

/** A link that looks like a button: it navigates, so assistive technology announces it as a link. */
export const ButtonLink = styled(Link, { shouldForwardProp: notStyleProp })<ButtonStyle>(buttonStyle);

/** Hides an element from sight but not from screen readers (for a `css` prop or a styled component). */
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

/** Text that only screen readers read. */
export const VisuallyHidden = styled.span`
  ${visuallyHidden}
`;

/** A label that only screen readers see (the field's purpose is clear from its placeholder and place). */
export const HiddenLabel = styled.label`
  ${visuallyHidden}
`;

/** Secondary text. No margin of its own: the layout around it spaces it. */
export const Muted = styled.p`
  margin: 0;
  color: var(--kasa-muted);
`;

/** What every text field, text area and select shares: a visible border and the theme's surface and text. */
export const fieldStyle = css`
  border: 1px solid var(--kasa-muted);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
`;

export const TextInput = styled.input`
  ${fieldStyle}
  width: 100%;
  min-height: 2.5rem;
  padding: 0.375rem 0.625rem;
`;

export const Select = styled.select`
  ${fieldStyle}
  min-height: 2.25rem;
  padding: 0.25rem 0.5rem;
  font-size: 0.875rem;
  ${TOUCH_MEDIA} {
    min-height: ${TOUCH_TARGET};
  }
`;

/** An inline error with its action (Retry), announced when it appears (give it role="alert"). */
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

/** A page's content column: 72rem wide, or 30rem when `narrow` (forms). */
export const PageContainer = styled('div', { shouldForwardProp: (prop) => prop !== 'narrow' })<{ narrow?: boolean }>`
  width: 100%;
  max-width: ${({ narrow }) => (narrow ? '30rem' : '72rem')};
  margin: 0 auto;
  padding: 2.5rem 1.25rem 4rem;
`;

/** A raised card holding a page's main content (sign-in, settings). */
export const Card = styled.section`
  background: var(--kasa-surface);
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  padding: 1.75rem;
  box-shadow: var(--kasa-shadow);
  h1,
  h2 {
    margin-top: 0;
  }
`;

/** A row of buttons under a form or a message. */
export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-top: 1.25rem;
`;
