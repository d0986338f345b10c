import styled from '@emotion/styled';
import { lazy, Suspense, type ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useServicesStatus } from './api/developerQueries';
import { overallBadge, STATE_COLOURS, STATE_MARKS } from './status/serviceState';
import OverviewTab from './tabs/OverviewTab';
import { Badge, Muted } from './ui/controls';
import { Loading } from './ui/States';
import { TabBoundary } from './ui/TabBoundary';
import { Tabs, type TabItem } from './ui/Tabs';
import { Globe } from 'lucide-react';
import { ICON } from './ui/icons';

// Overview is the first thing people see, so it comes with the page; every other tab is a chunk of its own,
// loaded when it is opened (the first load of /developer stays within the web budget).
const DocsTab = lazy(() => import('./tabs/DocsTab'));
const SdksTab = lazy(() => import('./tabs/SdksTab'));
const ApiTestTab = lazy(() => import('./tabs/ApiTestTab'));
const ExamplesTab = lazy(() => import('./tabs/ExamplesTab'));
const ServicesTab = lazy(() => import('./tabs/ServicesTab'));
const AnalyticsTab = lazy(() => import('./tabs/AnalyticsTab'));
const KeysTab = lazy(() => import('./tabs/KeysTab'));
const TeamTab = lazy(() => import('./tabs/TeamTab'));

export type TabKey =
  'overview' | 'docs' | 'sdks' | 'api-test' | 'examples' | 'services' | 'analytics' | 'keys' | 'team';

const TABS: ReadonlyArray<TabItem<TabKey> & { panel: ComponentType }> = [
  { key: 'overview', label: 'Overview', panel: OverviewTab },
  { key: 'docs', label: 'Docs', panel: DocsTab },
  { key: 'sdks', label: 'SDKs', panel: SdksTab },
  { key: 'api-test', label: 'API Test', panel: ApiTestTab },
  { key: 'examples', label: 'Examples', panel: ExamplesTab },
  { key: 'services', label: 'Services', panel: ServicesTab },
  { key: 'analytics', label: 'Analytics', panel: AnalyticsTab },
  { key: 'keys', label: 'Keys', panel: KeysTab },
  { key: 'team', label: 'Team', panel: TeamTab },
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
  const status = useServicesStatus();
  const badge = overallBadge(status.data?.data.overall.status, status.isError && !status.data);
  return (
    <Badge data-testid="status-badge" data-state={badge.state}>
      <Mark colour={STATE_COLOURS[badge.state]} aria-hidden="true">
        {STATE_MARKS[badge.state]}
      </Mark>
      {badge.text}
    </Badge>
  );
}

/**
 * The developer portal, mounted by the shell at /developer for a signed-in user: a header with the platform's
 * live state and nine tabs; the open tab is in the URL (`?tab=keys`), so a reload or a shared link opens it.
 */
export default function DeveloperApp() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const selected: TabKey = isTabKey(requested) ? requested : 'overview';
  const Panel = TABS.find((tab) => tab.key === selected)?.panel ?? OverviewTab;

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
          <h1>Developer Portal</h1>
          <Muted>Build with Kasa: keys, documentation, SDKs, an API tester and your usage.</Muted>
        </div>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem' }}>
          <StatusBadge />
          <Badge>
            <Globe {...ICON} size={14} />
            Global Edge Network
          </Badge>
        </div>
      </Header>
      <Tabs label="Developer portal sections" items={TABS} selected={selected} onSelect={select}>
        <TabBoundary key={selected} label={TABS.find((tab) => tab.key === selected)?.label ?? selected}>
          <Suspense fallback={<Loading>Loading…</Loading>}>
            <Panel />
          </Suspense>
        </TabBoundary>
      </Tabs>
    </Page>
  );
}
