import { Component, type ErrorInfo, type ReactNode } from 'react';
import styled from '@emotion/styled';
import { Button, Card, Muted } from '../ui/controls';

const ErrorCard = styled(Card)`
  max-width: 36rem;
  margin: 3rem auto;
`;

interface Props {
  /** What failed, in words: 'the home page'. */
  label: string;
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
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[kasa] ${this.props.label} failed to load`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <ErrorCard role="alert" aria-labelledby="remote-error-title" data-testid="remote-error">
        <h2 id="remote-error-title">This page failed to load</h2>
        <Muted>{`We could not load ${this.props.label}. Check your connection, then try again.`}</Muted>
        <Button type="button" onClick={this.props.onRetry}>
          Retry
        </Button>
      </ErrorCard>
    );
  }
}
