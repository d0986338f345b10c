import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useT } from '../i18n/useT';
import { Button, InlineError } from '@kasa/ui';

interface State {
  error: Error | null;
}

/** What a failed tab says, in the current language, with Reload. */
function TabFailure({ label }: { label: string }) {
  const t = useT();
  return (
    <InlineError role="alert" data-testid="tab-error">
      <p>{t('tabs.failed', { tab: label })}</p>
      <Button type="button" variant="secondary" compact onClick={() => window.location.reload()}>
        {t('tabs.reload')}
      </Button>
    </InlineError>
  );
}

/**
 * Contains a failure of one tab (its code could not be downloaded, or it threw) so the header and the other tabs
 * keep working. A tab whose code failed to load comes back with a page reload, which is what Reload offers.
 * `label` is the tab's name as the person reads it; `id` names it in the console.
 */
export class TabBoundary extends Component<{ id: string; label: string; children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[kasa] the ${this.props.id} tab failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return <TabFailure label={this.props.label} />;
  }
}
