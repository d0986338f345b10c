import styled from '@emotion/styled';
import { Link } from 'react-router-dom';

// Building blocks of the marketing pages. Colours come from the shell's CSS variables (light and dark).

export const Page = styled.div`
  max-width: 72rem;
  margin: 0 auto;
  padding: 3rem 1.25rem 4rem;
`;

export const Hero = styled.section`
  text-align: center;
  padding: 3rem 0 2rem;
`;

export const Eyebrow = styled.p`
  margin: 0 0 1rem;
  color: var(--kasa-accent);
  font-weight: 600;
  letter-spacing: 0.02em;
`;

export const Title = styled.h1`
  margin: 0 auto 1rem;
  max-width: 48rem;
  font-size: clamp(2.25rem, 6vw, 3.75rem);
  line-height: 1.1;
  letter-spacing: -0.02em;
`;

export const Lead = styled.p`
  margin: 0 auto 2rem;
  max-width: 42rem;
  color: var(--kasa-muted);
  font-size: 1.125rem;
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 0.75rem;
  margin: 0 0 1rem;
`;

/** Keeps the hero's height while the auth state loads, so the page does not jump. */
export const ActionsPlaceholder = styled.div`
  height: 6.5rem;
`;

export const StatusLine = styled.p`
  margin: 0 0 1.5rem;
  color: var(--kasa-muted);
  font-weight: 500;
`;

type Variant = 'primary' | 'secondary' | 'ghost';

/** A link that looks like a button: these actions navigate, so they are links for assistive technology. */
export const ButtonLink = styled(Link, { shouldForwardProp: (prop) => prop !== 'variant' })<{ variant?: Variant }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 2.75rem;
  padding: 0.625rem 1.25rem;
  border-radius: var(--kasa-radius);
  border: 2px solid ${({ variant = 'secondary' }) => (variant === 'ghost' ? 'transparent' : 'var(--kasa-primary)')};
  background: ${({ variant = 'secondary' }) => (variant === 'primary' ? 'var(--kasa-primary)' : 'transparent')};
  color: ${({ variant = 'secondary' }) => (variant === 'primary' ? 'var(--kasa-primary-fg)' : 'var(--kasa-fg)')};
  font-weight: 600;
  text-decoration: none;
  &:hover {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
`;

export const Grid = styled.ul`
  list-style: none;
  margin: 2rem 0 0;
  padding: 0;
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
`;

export const Card = styled.li`
  background: var(--kasa-surface);
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  padding: 1.25rem;
  h2,
  h3 {
    margin: 0 0 0.5rem;
    font-size: 1.125rem;
  }
  p {
    margin: 0;
    color: var(--kasa-muted);
  }
`;

/** A real button (for actions), styled like ButtonLink. */
export const Button = styled('button', { shouldForwardProp: (prop) => prop !== 'variant' })<{ variant?: Variant }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 2.75rem;
  padding: 0.625rem 1.25rem;
  border-radius: var(--kasa-radius);
  border: 2px solid ${({ variant = 'secondary' }) => (variant === 'ghost' ? 'transparent' : 'var(--kasa-primary)')};
  background: ${({ variant = 'secondary' }) => (variant === 'primary' ? 'var(--kasa-primary)' : 'transparent')};
  color: ${({ variant = 'secondary' }) => (variant === 'primary' ? 'var(--kasa-primary-fg)' : 'var(--kasa-fg)')};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &:hover:not(:disabled) {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

export const Section = styled.section`
  margin: 3rem 0 0;
  > h2 {
    margin: 0 0 0.5rem;
    font-size: clamp(1.5rem, 4vw, 2rem);
    text-align: center;
  }
  > p {
    margin: 0 auto;
    max-width: 42rem;
    color: var(--kasa-muted);
    text-align: center;
  }
`;

/** A small pill: the current tier, 'Most Popular', a service state. */
export const Badge = styled.span`
  display: inline-block;
  padding: 0.125rem 0.75rem;
  border-radius: 999px;
  border: 1px solid var(--kasa-accent);
  color: var(--kasa-fg);
  font-size: 0.8125rem;
  font-weight: 700;
  letter-spacing: 0.02em;
`;

/** Long-form text (legal pages, about): a readable measure and spacing. */
export const Prose = styled.article`
  max-width: 46rem;
  margin: 0 auto;
  h1 {
    margin: 0 0 0.5rem;
    font-size: clamp(2rem, 5vw, 2.75rem);
    line-height: 1.15;
  }
  h2 {
    margin: 2rem 0 0.5rem;
    font-size: 1.375rem;
  }
  p,
  li {
    color: var(--kasa-fg);
  }
  /* Links in the text only: the button-like links keep their own colours. */
  p a,
  li a {
    color: var(--kasa-fg);
  }
`;
