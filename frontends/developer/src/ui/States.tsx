import { describeFailure } from '../api/describeFailure';
import { Button, InlineError, Muted } from './controls';

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

/** A failed load: what happened, what to do, and Retry. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  return (
    <InlineError role="alert" data-testid="load-error">
      <p>
        {`Could not load ${what}: ${describeFailure(error)}. `}
        {onRetry ? 'Check your connection, then try again.' : 'Reload the page to try again.'}
      </p>
      {onRetry ? (
        <Button type="button" variant="secondary" compact onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </InlineError>
  );
}
