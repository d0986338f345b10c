import styled from '@emotion/styled';
import { lazy, Suspense } from 'react';
import { RemoteCatalogue } from '@kasa/i18n';
import { Muted } from '@kasa/ui';
import { Tabs, type TabItem } from '@kasa/ui/widgets';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { useBasePath } from '@kasa/ui/routing';
import { BaseContext } from './base';
import { ADMIN_ENGLISH, ADMIN_LOADERS } from './i18n/catalogues';
import { useT, type MessageId } from './i18n/useT';
import AuditTab from './tabs/AuditTab';
import OperatorsTab from './tabs/OperatorsTab';
import PeopleTab from './tabs/PeopleTab';
import ProvidersTab from './tabs/ProvidersTab';
import SalesTab from './tabs/SalesTab';
import { SectionBoundary } from './ui/SectionBoundary';
import { Loading } from './ui/States';

// Health and usage is a chunk of its own, loaded when the section is first opened.
const HealthTab = lazy(() => import(/* webpackChunkName: "admin-health" */ './tabs/HealthTab'));

export type SectionKey = 'people' | 'sales' | 'operators' | 'providers' | 'health' | 'audit';

/** The console's sections: People at the base path (and a person at `people/<id>`), the others at their name. */
const SECTIONS: ReadonlyArray<{ key: SectionKey; label: MessageId }> = [
  { key: 'people', label: 'tabs.people' },
  { key: 'sales', label: 'tabs.sales' },
  { key: 'operators', label: 'tabs.operators' },
  { key: 'providers', label: 'tabs.providers' },
  { key: 'health', label: 'tabs.health' },
  { key: 'audit', label: 'tabs.audit' },
];

/** The section a path below the base names: `''` and `people/…` are People. */
export function sectionOf(rest: string): SectionKey | null {
  const first = rest.replace(/^\/+/, '').split('/')[0] ?? '';
  if (first === '' || first === 'people') return 'people';
  return SECTIONS.some((section) => section.key === first) ? (first as SectionKey) : null;
}

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
  margin-bottom: 1.25rem;
  h1 {
    margin: 0;
    font-size: clamp(1.5rem, 4vw, 2rem);
  }
  p {
    margin: 0.25rem 0 0;
  }
`;

/** The console in the current language: header and sections, the open one in the address. */
function Console() {
  const t = useT();
  const { pathname } = useLocation();
  const base = useBasePath();
  const navigate = useNavigate();
  const section = sectionOf(pathname.slice(base.length));
  const items: ReadonlyArray<TabItem<SectionKey>> = SECTIONS.map((entry) => ({
    key: entry.key,
    label: t(entry.label),
  }));
  const select = (key: SectionKey) => navigate(key === 'people' ? base : `${base}/${key}`);

  return (
    <BaseContext.Provider value={base}>
      <Page data-testid="admin-app">
        <Header>
          <h1>{t('app.title')}</h1>
          <Muted>{t('app.intro')}</Muted>
        </Header>
        <Tabs label={t('app.sections')} items={items} selected={section ?? 'people'} onSelect={select}>
          <SectionBoundary
            key={section}
            label={t(SECTIONS.find((entry) => entry.key === section)?.label ?? 'tabs.people')}
          >
            <Routes>
              <Route index element={<PeopleTab />} />
              <Route path="people/:personId" element={<PeopleTab />} />
              <Route path="sales" element={<SalesTab />} />
              <Route path="operators" element={<OperatorsTab />} />
              <Route path="providers" element={<ProvidersTab />} />
              <Route path="audit" element={<AuditTab />} />
              <Route
                path="health"
                element={
                  <Suspense fallback={<Loading>{t('health.loading')}</Loading>}>
                    <HealthTab />
                  </Suspense>
                }
              />
              <Route path="*" element={<Navigate to={base} replace />} />
            </Routes>
          </SectionBoundary>
        </Tabs>
      </Page>
    </BaseContext.Provider>
  );
}

/**
 * The operator console, mounted by the shell at /admin/* for operators only (the shell asks the API first; every
 * /api/admin route is a 404 to anyone else): People, Sales, Operators, AI providers, Health and usage, and the audit
 * log, each at its own address.
 * Its messages are in the shell's language (English with the page, any other language a chunk of its own).
 */
export default function AdminApp() {
  return (
    <RemoteCatalogue english={ADMIN_ENGLISH} loaders={ADMIN_LOADERS}>
      <Console />
    </RemoteCatalogue>
  );
}
