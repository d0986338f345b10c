import styled from '@emotion/styled';
import { RemoteCatalogue, SectionCatalogue } from '@kasa/i18n';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useServicesStatus } from './api/developerQueries';
import { overallBadge, STATE_COLOURS, STATE_MARKS } from './status/serviceState';
import OverviewTab from './tabs/OverviewTab';
import { Globe, ICON, Muted } from '@kasa/ui';
import { type TabItem, Tabs } from '@kasa/ui/widgets';
import { Badge } from './ui/controls';
import { Loading } from './ui/States';
import { TabBoundary } from './ui/TabBoundary';
import { DEVELOPER_ENGLISH, DEVELOPER_LOADERS } from './i18n/catalogues';
import { PANELS_LOADERS } from './i18n/panels/catalogues';
import { useT, type MessageId } from './i18n/useT';
import { NotifyContext, noToast, type Notify } from './notify';

interface Tab {
  key: TabKey;
  label: MessageId;
  panel: ComponentType;
  /** Downloads a lazy tab's code; absent for Overview, which comes with the page. */
  load?: () => Promise<unknown>;
}

/** A tab that is a chunk of its own: its code loads when it is first opened. */
function lazyTab(key: TabKey, label: MessageId, load: () => Promise<{ default: ComponentType }>): Tab {
  return { key, label, panel: lazy(load), load };
}

export type TabKey =
  'overview' | 'docs' | 'sdks' | 'api-test' | 'examples' | 'services' | 'analytics' | 'keys' | 'webhooks' | 'team';

// Overview is the first thing people see, so it comes with the page, its messages in the portal's catalogue; every
// other tab is a chunk of its own, loaded when it is opened, with the panels' messages (i18n/panels) beside it (the
// first load of /developer stays within the web budget).
const TABS: readonly Tab[] = [
  { key: 'overview', label: 'tabs.overview', panel: OverviewTab },
  lazyTab('docs', 'tabs.docs', () => import('./tabs/DocsTab')),
  lazyTab('sdks', 'tabs.sdks', () => import('./tabs/SdksTab')),
  lazyTab('api-test', 'tabs.apiTest', () => import('./tabs/ApiTestTab')),
  lazyTab('examples', 'tabs.examples', () => import('./tabs/ExamplesTab')),
  lazyTab('services', 'tabs.services', () => import('./tabs/ServicesTab')),
  lazyTab('analytics', 'tabs.analytics', () => import('./tabs/AnalyticsTab')),
  lazyTab('keys', 'tabs.keys', () => import('./tabs/KeysTab')),
  lazyTab('webhooks', 'tabs.webhooks', () => import('./tabs/WebhooksTab')),
  lazyTab('team', 'tabs.team', () => import('./tabs/TeamTab')),
];

const isTabKey = (value: string | null): value is TabKey => TABS.some((tab) => tab.key === value);

const Page = styled.div`
  width: 100%;
  max-width: 80rem;
  margin: 0 auto;
  padding: 1.5rem 1rem 2.5rem;
  @media (max-width: 48rem) {
    padding: 1rem 0.75rem 2rem;
  }
`;

const Header = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  justify-content: space-between;
  gap: 0.75rem 1.5rem;
  margin-bottom: 1.25rem;
  h1 {
    margin: 0;
    font-size: clamp(1.5rem, 4vw, 2rem);
  }
`;

const Mark = styled.span<{ colour: string }>`
  color: ${({ colour }) => colour};
`;

/** The header's live badge: the platform's overall state from GET /api/developer/services/status. */
function StatusBadge() {
  const t = useT();
  const status = useServicesStatus();
  const badge = overallBadge(status.data?.data.overall.status, status.isError && !status.data);
  return (
    <Badge data-testid="status-badge" data-state={badge.state}>
      <Mark colour={STATE_COLOURS[badge.state]} aria-hidden="true">
        {STATE_MARKS[badge.state]}
      </Mark>
      {t(badge.id)}
    </Badge>
  );
}

/** The portal in the current language: header, badge and tabs. */
function Portal() {
  const t = useT();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const selected: TabKey = isTabKey(requested) ? requested : 'overview';
  const tab = TABS.find((candidate) => candidate.key === selected) ?? TABS[0]!;
  const Panel = tab.panel;
  const items: ReadonlyArray<TabItem<TabKey>> = TABS.map((entry) => ({ key: entry.key, label: t(entry.label) }));

  // A lazy tab's code downloads beside the panels' messages rather than after them.
  useEffect(() => {
    tab.load?.().catch(() => undefined);
  }, [tab]);

  const select = (key: TabKey) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (key === 'overview') next.delete('tab');
        else next.set('tab', key);
        return next;
      },
      { replace: false },
    );
  };

  return (
    <Page data-testid="developer-app">
      <Header data-tour="developer-portal">
        <div>
          <h1>{t('app.title')}</h1>
          <Muted>{t('app.intro')}</Muted>
        </div>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem' }}>
          <StatusBadge />
          <Badge>
            <Globe {...ICON} size={14} />
            {t('app.edge')}
          </Badge>
        </div>
      </Header>
      <Tabs label={t('app.sections')} items={items} selected={selected} onSelect={select}>
        <TabBoundary
          key={selected}
          id={selected}
          label={items.find((item) => item.key === selected)?.label ?? selected}
        >
          <Suspense fallback={<Loading>{t('common.loading')}</Loading>}>
            {tab.load ? (
              <SectionCatalogue loaders={PANELS_LOADERS}>
                <Panel />
              </SectionCatalogue>
            ) : (
              <Panel />
            )}
          </Suspense>
        </TabBoundary>
      </Tabs>
    </Page>
  );
}

/**
 * The developer portal, mounted by the shell at /developer for a signed-in user: a header with the platform's
 * live state and ten tabs; the open tab is in the URL (`?tab=keys`), so a reload or a shared link opens it. Its
 * messages are in the shell's language (English with the page, any other language a chunk of its own). `notify` is
 * the shell's toast; without it (an older shell) the portal shows no toasts.
 */
export default function DeveloperApp({ notify }: { notify?: Notify }) {
  return (
    <NotifyContext.Provider value={notify ?? noToast}>
      <RemoteCatalogue english={DEVELOPER_ENGLISH} loaders={DEVELOPER_LOADERS}>
        <Portal />
      </RemoteCatalogue>
    </NotifyContext.Provider>
  );
}
