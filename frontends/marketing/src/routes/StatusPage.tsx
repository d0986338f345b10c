import styled from '@emotion/styled';
import { displayState, usePlatformStatus, type DisplayState } from '../api/status';
import { Hero, Lead, Page, Title } from '../ui';

const LABELS: Record<DisplayState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'Unknown',
};

const HEADLINES: Record<DisplayState, string> = {
  operational: 'All Systems Operational',
  degraded: 'Some Systems Degraded',
  down: 'Major Outage',
  unknown: 'Status Unknown',
};

/** The status service's names for the parts of Kasa, in words. */
const SERVICE_NAMES: Record<string, string> = {
  auth: 'Accounts & sign-in',
  chat: 'Chat',
  voice: 'Voice & languages',
  status: 'Status & analytics',
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
export default function StatusPage() {
  const { data, isPending, isError, dataUpdatedAt } = usePlatformStatus();
  const overall = isError && !data ? 'unknown' : displayState(data?.status);

  return (
    <Page>
      <Hero aria-labelledby="status-title">
        <Title id="status-title">Service Status</Title>
        {isPending ? (
          <Lead role="status">Loading service status...</Lead>
        ) : (
          <Lead role="status" data-testid="status-overall">
            <State state={overall}>{HEADLINES[overall]}</State>
          </Lead>
        )}
      </Hero>
      {isError && !data ? (
        <Note role="alert">We could not reach the status service. Trying again in 30 seconds.</Note>
      ) : null}
      {data ? (
        <section aria-label="Services">
          <Services>
            {data.services.map((service) => {
              const state = displayState(service.status);
              return (
                <li key={service.name} data-testid={`status-service-${service.name}`}>
                  <span>{SERVICE_NAMES[service.name] ?? service.name}</span>
                  <State state={state}>{LABELS[state]}</State>
                </li>
              );
            })}
          </Services>
          <Note>
            {`Last checked ${new Date(dataUpdatedAt).toLocaleTimeString()}. This page refreshes every 30 seconds.`}
          </Note>
        </section>
      ) : null}
    </Page>
  );
}
