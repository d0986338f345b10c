import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, InlineError } from '@kasa/ui';
import { useT } from '../i18n/useT';

interface State {
  error: Error | null;
}

/** What a failed section says, in the current language, with Reload. */
function SectionFailure({ label }: { label: string }) {
  const t = useT();
  return (
    <InlineError role="alert" data-testid="section-error">
      <p>{t('tabs.failed', { tab: label })}</p>
      <Button type="button" variant="secondary" compact onClick={() => window.location.reload()}>
        {t('tabs.reload')}
      </Button>
    </InlineError>
  );
}

/** Contains a failure of one section, so that the header and the other sections keep working. */
export class SectionBoundary extends Component<{ label: string; children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[kasa] the ${this.props.label} section of the operator console failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return <SectionFailure label={this.props.label} />;
  }
}
