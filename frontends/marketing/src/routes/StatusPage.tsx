import styled from '@emotion/styled';
import { displayState, usePlatformStatus, type DisplayState } from '../api/status';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT, type PagesMessageId } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import { Hero, Lead, Page, Title } from '../ui';

const LABELS: Record<DisplayState, PagesMessageId> = {
  operational: 'status.state.operational',
  degraded: 'status.state.degraded',
  down: 'status.state.down',
  unknown: 'status.state.unknown',
};

const HEADLINES: Record<DisplayState, PagesMessageId> = {
  operational: 'status.headline.operational',
  degraded: 'status.headline.degraded',
  down: 'status.headline.down',
  unknown: 'status.headline.unknown',
};

/** The status service's names for the parts of Kasa, in words. */
const SERVICE_NAMES: Record<string, PagesMessageId> = {
  auth: 'status.service.auth',
  chat: 'status.service.chat',
  voice: 'status.service.voice',
  status: 'status.service.status',
};

// Each state has a shape as well as a colour, so it does not rest on colour alone.
const MARKS: Record<DisplayState, string> = { operational: '●', degraded: '▲', down: '■', unknown: '?' };
const COLOURS: Record<DisplayState, string> = {
  operational: 'var(--kasa-accent)',
  degraded: 'var(--kasa-warning, #b45309)',
  down: 'var(--kasa-danger, #b91c1c)',
  unknown: 'var(--kasa-muted)',
};

const Services = styled.ul`
  list-style: none;
  max-width: 40rem;
  margin: 0 auto;
  padding: 0;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  li {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0.5rem;
    padding: 0.875rem 1.25rem;
  }
  li + li {
    border-top: 1px solid var(--kasa-border);
  }
`;

const State = styled.span<{ state: DisplayState }>`
  font-weight: 700;
  &::before {
    content: '${({ state }) => MARKS[state]}';
    margin-right: 0.5rem;
    color: ${({ state }) => COLOURS[state]};
  }
`;

const Note = styled.p`
  margin: 1.5rem 0 0;
  color: var(--kasa-muted);
  text-align: center;
  font-size: 0.9375rem;
`;

/** Route `/status`: the platform's live health from GET /api/status, refreshed every 30 seconds. */
function StatusPage() {
  const t = usePagesT();
  const { data, isPending, isError, dataUpdatedAt } = usePlatformStatus();
  const overall = isError && !data ? 'unknown' : displayState(data?.status);

  return (
    <Page>
      <Hero aria-labelledby="status-title">
        <Title id="status-title">{t('status.title')}</Title>
        {isPending ? (
          <Lead role="status">{t('status.loading')}</Lead>
        ) : (
          <Lead role="status" data-testid="status-overall">
            <State state={overall}>{t(HEADLINES[overall])}</State>
          </Lead>
        )}
      </Hero>
      {isError && !data ? <Note role="alert">{t('status.unreachable')}</Note> : null}
      {data ? (
        <section aria-label={t('status.services')}>
          <Services>
            {data.services.map((service) => {
              const state = displayState(service.status);
              const name = SERVICE_NAMES[service.name];
              return (
                <li key={service.name} data-testid={`status-service-${service.name}`}>
                  <span>{name ? t(name) : service.name}</span>
                  <State state={state}>{t(LABELS[state])}</State>
                </li>
              );
            })}
          </Services>
          <Note>{t('status.lastChecked', { checked: new Date(dataUpdatedAt) })}</Note>
        </section>
      ) : null}
    </Page>
  );
}

export default withCatalogue(StatusPage, PAGES_LOADERS);
