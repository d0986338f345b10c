import styled from '@emotion/styled';
import { usePlatformStatus } from '../api/chatQueries';
import { Muted } from '@kasa/ui';
import { healthItems } from './healthItems';
import { useT, type MessageId, type Translate } from '../i18n/useT';

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

/** Spec section 4: the chat sidebar shows healthy and degraded; anything else is shown red. */
export function healthOf(status: string): { label: string; tone: Tone } {
  if (status === 'operational' || status === 'healthy') return { label: 'healthy', tone: 'good' };
  if (status === 'degraded') return { label: 'degraded', tone: 'warn' };
  return { label: status || 'unknown', tone: 'bad' };
}

/**
 * Live health of what the person uses (Voice Service, Video Service, Translation, Maps & Geo, AI providers) from the
 * status service's snapshot, refreshed every 30 seconds.
 */
/** The product's name, the same in every language. */
const PRODUCT_NAME = 'Kasa';

const KNOWN_STATES = new Set(['healthy', 'degraded', 'down', 'unknown']);
const stateLabel = (t: Translate, label: string) =>
  KNOWN_STATES.has(label) ? t(`health.state.${label}` as MessageId) : label;

export function ServiceHealth() {
  const t = useT();
  const status = usePlatformStatus();
  return (
    <section aria-labelledby="service-health-heading" data-testid="service-health">
      <h2 id="service-health-heading">{t('health.title')}</h2>
      {status.isPending ? <Muted role="status">{t('health.checking')}</Muted> : null}
      {status.isError && !status.data ? (
        <List>
          <li>
            <span>{PRODUCT_NAME}</span>
            <State tone="bad">
              <Dot tone="bad" aria-hidden="true" />
              {t('health.unavailable')}
            </State>
          </li>
        </List>
      ) : null}
      {status.data ? (
        <List>
          {healthItems(status.data.data.services).map((item) => {
            const health = healthOf(item.status);
            return (
              <li key={item.id} data-testid={`health-${item.id}`}>
                <span>{t(`health.${item.id}` as MessageId)}</span>
                <State tone={health.tone}>
                  <Dot tone={health.tone} aria-hidden="true" />
                  {stateLabel(t, health.label)}
                </State>
              </li>
            );
          })}
        </List>
      ) : null}
    </section>
  );
}
