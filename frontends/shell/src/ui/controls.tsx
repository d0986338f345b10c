import styled from '@emotion/styled';
import { css } from '@emotion/react';
import { Link } from 'react-router-dom';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const variantStyles: Record<ButtonVariant, string> = {
  primary: 'background: var(--kasa-primary); color: var(--kasa-primary-fg); border-color: var(--kasa-primary);',
  secondary: 'background: transparent; color: var(--kasa-fg); border-color: var(--kasa-primary);',
  ghost: 'background: transparent; color: var(--kasa-fg); border-color: transparent;',
  danger: 'background: transparent; color: var(--kasa-fg); border-color: var(--kasa-border);',
};

const base = (variant: ButtonVariant) => css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.5rem;
  min-height: 2.75rem;
  padding: 0.5rem 1.125rem;
  border: 2px solid;
  border-radius: var(--kasa-radius);
  font: inherit;
  font-weight: 600;
  text-decoration: none;
  cursor: pointer;
  ${variantStyles[variant]}
  &:hover:not(:disabled) {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

const notVariant = (prop: string) => prop !== 'variant' && prop !== 'compact';

/** A real button, for actions. */
export const Button = styled('button', { shouldForwardProp: notVariant })<{
  variant?: ButtonVariant;
  compact?: boolean;
}>`
  ${({ variant = 'primary' }) => base(variant)}
  ${({ compact }) => (compact ? 'min-height: 2.25rem; padding: 0.25rem 0.75rem;' : '')}
`;

/** A link that looks like a button: it navigates, so assistive technology announces it as a link. */
export const ButtonLink = styled(Link, { shouldForwardProp: notVariant })<{
  variant?: ButtonVariant;
  compact?: boolean;
}>`
  ${({ variant = 'primary' }) => base(variant)}
  ${({ compact }) => (compact ? 'min-height: 2.25rem; padding: 0.25rem 0.75rem;' : '')}
`;

export const PageContainer = styled.div<{ narrow?: boolean }>`
  width: 100%;
  max-width: ${({ narrow }) => (narrow ? '30rem' : '72rem')};
  margin: 0 auto;
  padding: 2.5rem 1.25rem 4rem;
`;

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

export const Muted = styled.p`
  color: var(--kasa-muted);
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-top: 1.25rem;
`;

export const VisuallyHidden = styled.span`
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
