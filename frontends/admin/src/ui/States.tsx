import styled from '@emotion/styled';
import { Button, InlineError, Muted } from '@kasa/ui';
import { useT } from '../i18n/useT';

/** A loading line, announced politely. */
export function Loading({ children }: { children: string }) {
  return (
    <Muted role="status" data-testid="loading">
      {children}
    </Muted>
  );
}

/** What an empty list says instead. */
export function Empty({ children, testId = 'empty' }: { children: string; testId?: string }) {
  return <Muted data-testid={testId}>{children}</Muted>;
}

/** A failed load: what happened and what to do (`message`), and Retry. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <InlineError role="alert" data-testid="load-error">
      <p>{message}</p>
      <Button type="button" variant="secondary" compact onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </InlineError>
  );
}

/** An action's failure, where the operator acted. */
export function ActionError({ message }: { message: string }) {
  return (
    <InlineError role="alert" data-testid="action-error">
      <p>{message}</p>
    </InlineError>
  );
}

const Done = styled.p`
  margin: 0;
  padding: 0.5rem 0.75rem;
  border: 1px solid var(--kasa-success);
  border-radius: var(--kasa-radius);
  font-weight: 600;
`;

/** An action's outcome, announced politely. */
export function Notice({ children }: { children: string }) {
  return (
    <Done role="status" data-testid="notice">
      {children}
    </Done>
  );
}
