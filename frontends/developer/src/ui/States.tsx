import { useT } from '../i18n/useT';
import { Button, InlineError, Muted } from '@kasa/ui';

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
