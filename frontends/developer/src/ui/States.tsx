import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';
import { useT } from '../i18n/useT';
import { Button, InlineError, Muted, VisuallyHidden } from './controls';

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.5; }
`;

const Bars = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.625rem;
  span {
    display: block;
    height: 1rem;
    border-radius: var(--kasa-radius);
    background: var(--kasa-surface-muted);
    animation: ${pulse} 1.5s ease-in-out infinite;
  }
  @media (prefers-reduced-motion: reduce) {
    span {
      animation: none;
    }
  }
`;

/**
 * A placeholder in the shape of what is loading, with the loading line for screen readers. The reads behind it
 * have a time limit, so it gives way to the data or to a LoadError, never to an endless wait.
 */
export function LoadingSkeleton({ children, lines = 3 }: { children: string; lines?: number }) {
  return (
    <Bars role="status" aria-busy="true" data-testid="loading">
      <VisuallyHidden>{children}</VisuallyHidden>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} aria-hidden="true" style={{ width: `${90 - ((i * 17) % 45)}%` }} />
      ))}
    </Bars>
  );
}

/** A loading line, announced politely. */
export function Loading({ children }: { children: string }) {
  return (
    <Muted role="status" data-testid="loading">
      {children}
    </Muted>
  );
}

/** What an empty list or chart says instead. */
export function Empty({ children, testId = 'empty' }: { children: string; testId?: string }) {
  return <Muted data-testid={testId}>{children}</Muted>;
}

/**
 * A failed load: what happened and what to do (`message`, e.g. 'Could not load your keys: <why>'), and Retry; without
 * a retry, it says to reload the page.
 */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const t = useT();
  return (
    <InlineError role="alert" data-testid="load-error">
      <p>{onRetry ? message : t('states.reloadToRetry', { message })}</p>
      {onRetry ? (
        <Button type="button" variant="secondary" compact onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </InlineError>
  );
}
