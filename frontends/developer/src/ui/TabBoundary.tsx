import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, InlineError } from './controls';

interface State {
  error: Error | null;
}

/**
 * Contains a failure of one tab (its code could not be downloaded, or it threw) so the header and the other tabs
 * keep working. A tab whose code failed to load comes back with a page reload, which is what Reload offers.
 */
export class TabBoundary extends Component<{ label: string; children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[kasa] the ${this.props.label} tab failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <InlineError role="alert" data-testid="tab-error">
        <p>{`The ${this.props.label} tab failed to load. Check your connection, then reload the page.`}</p>
        <Button type="button" variant="secondary" compact onClick={() => window.location.reload()}>
          Reload
        </Button>
      </InlineError>
    );
  }
}
