import { Component, type ErrorInfo, type ReactNode } from 'react';
import styled from '@emotion/styled';
import { Button, Card, Muted } from '@kasa/ui';
import { useT, type MessageId } from '../i18n/useT';

const ErrorCard = styled(Card)`
  max-width: 36rem;
  margin: 3rem auto;
`;

interface Props {
  /** Names what failed in the console's error report (people see a translated message). */
  name: string;
  onRetry: () => void;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Contains a failure of what it wraps (a remote that cannot load, or a page that throws) in a card with a
 * Retry button, so the rest of the app (navigation, footer) keeps working.
 */
/** A message of the shell's catalogue, for class components (which cannot call hooks). */
function Text({ id }: { id: MessageId }) {
  return useT()(id);
}

export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[kasa] ${this.props.name} failed to load`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <ErrorCard role="alert" aria-labelledby="remote-error-title" data-testid="remote-error">
        <h2 id="remote-error-title">
          <Text id="remote.failed" />
        </h2>
        <Muted>
          <Text id="remote.failedText" />
        </Muted>
        <Button type="button" onClick={this.props.onRetry}>
          <Text id="remote.retry" />
        </Button>
      </ErrorCard>
    );
  }
}
