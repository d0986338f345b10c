import styled from '@emotion/styled';
import { usePlatformStatus } from '../api/chatQueries';
import { Muted } from '../ui/controls';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  font-size: 0.875rem;
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }
`;

const Dot = styled.span<{ tone: Tone }>`
  display: inline-block;
  width: 0.625rem;
  height: 0.625rem;
  margin-right: 0.375rem;
  border-radius: 50%;
  background: ${({ tone }) => TONE_COLOURS[tone]};
`;

const State = styled.span<{ tone: Tone }>`
  display: inline-flex;
  align-items: center;
  color: ${({ tone }) => (tone === 'bad' ? 'var(--kasa-danger)' : 'var(--kasa-fg)')};
  font-weight: ${({ tone }) => (tone === 'good' ? 400 : 600)};
`;

type Tone = 'good' | 'warn' | 'bad';
const TONE_COLOURS: Record<Tone, string> = {
  good: 'var(--kasa-success)',
  warn: 'var(--kasa-warning)',
  bad: 'var(--kasa-danger)',
};

const SERVICE_NAMES: Record<string, string> = {
  auth: 'Accounts',
  chat: 'Chat',
  voice: 'Voice & Translation',
  status: 'Status',
};

/** Spec section 4: the chat sidebar shows healthy and degraded; anything else is shown red. */
export function healthOf(status: string): { label: string; tone: Tone } {
  if (status === 'operational' || status === 'healthy') return { label: 'healthy', tone: 'good' };
  if (status === 'degraded') return { label: 'degraded', tone: 'warn' };
  return { label: status || 'unknown', tone: 'bad' };
}

export const serviceName = (name: string): string =>
  SERVICE_NAMES[name] ?? name.charAt(0).toUpperCase() + name.slice(1);

/** Live health of Kasa's services (GET /api/status), refreshed every 30 seconds. */
export function ServiceHealth() {
  const status = usePlatformStatus();
  return (
    <section aria-labelledby="service-health-heading" data-testid="service-health">
      <h2 id="service-health-heading">Service health</h2>
      {status.isPending ? <Muted role="status">Checking…</Muted> : null}
      {status.isError && !status.data ? (
        <List>
          <li>
            <span>Kasa</span>
            <State tone="bad">
              <Dot tone="bad" aria-hidden="true" />
              unavailable
            </State>
          </li>
        </List>
      ) : null}
      {status.data ? (
        <List>
          {status.data.services.map((service) => {
            const health = healthOf(service.status);
            return (
              <li key={service.name} data-testid={`health-${service.name}`}>
                <span>{serviceName(service.name)}</span>
                <State tone={health.tone}>
                  <Dot tone={health.tone} aria-hidden="true" />
                  {health.label}
                </State>
              </li>
            );
          })}
        </List>
      ) : null}
    </section>
  );
}
