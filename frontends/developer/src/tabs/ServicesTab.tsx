import styled from '@emotion/styled';
import type { ServiceStatus } from '@kasa/contracts';
import { useServicesStatus } from '../api/developerQueries';
import { useRefresh } from '../hooks/useRefresh';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats, type Formats } from '../i18n/format';
import { usePanelsT, type PanelsTranslate } from '../i18n/panels/usePanelsT';
import { displayState, serviceName, STATE_COLOURS, STATE_LABELS, STATE_MARKS } from '../status/serviceState';
import { Button, Muted } from '@kasa/ui';
import { Card, Grid, Row, Spinner } from '../ui/controls';
import { Empty, LoadError } from '../ui/States';

const State = styled.span<{ colour: string }>`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  font-weight: 700;
  .mark {
    color: ${({ colour }) => colour};
  }
`;

const Figures = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 0.25rem 1rem;
  margin: 0.75rem 0 0;
  font-size: 0.9375rem;
  dt {
    color: var(--kasa-muted);
  }
  dd {
    margin: 0;
    text-align: right;
  }
`;

function StateLabel({ status }: { status: string }) {
  const t = usePanelsT();
  const state = displayState(status);
  return (
    <State colour={STATE_COLOURS[state]} data-state={state}>
      <span className="mark" aria-hidden="true">
        {STATE_MARKS[state]}
      </span>
      {t(STATE_LABELS[state])}
    </State>
  );
}

/** `lastResponse` is a time when the service has answered a probe; anything else is shown as it came. */
function lastResponseText(t: PanelsTranslate, formats: Formats, value: string | null): string {
  if (!value) return t('services.noAnswer');
  return Number.isNaN(Date.parse(value)) ? value : formats.dateTime(value);
}

function ServiceCard({ service }: { service: ServiceStatus }) {
  const t = usePanelsT();
  const formats = useFormats();
  return (
    <Card aria-labelledby={`service-${service.name}`} data-testid={`service-${service.name}`}>
      <Row style={{ justifyContent: 'space-between' }}>
        <h3 id={`service-${service.name}`} style={{ margin: 0 }}>
          {serviceName(t, service.name)}
        </h3>
        <StateLabel status={service.status} />
      </Row>
      {service.provider ? <Muted>{service.provider}</Muted> : null}
      <Figures>
        <dt>{t('figures.uptime')}</dt>
        <dd>{formats.percent(service.uptime)}</dd>
        <dt>{t('figures.requests')}</dt>
        <dd>{formats.count(service.requests)}</dd>
        <dt>{t('figures.errors')}</dt>
        <dd>{formats.count(service.errors)}</dd>
        <dt>{t('services.lastResponse')}</dt>
        <dd>{lastResponseText(t, formats, service.lastResponse)}</dd>
      </Figures>
    </Card>
  );
}

/** Services: the status panel. Refreshes by itself every 30 s; Refresh asks at once. */
export default function ServicesTab() {
  const t = usePanelsT();
  const formats = useFormats();
  const describeFailure = useDescribeFailure();
  const status = useServicesStatus();
  const { refreshing, refresh } = useRefresh(() => status.refetch());
  const overall = status.data?.data.overall;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Card aria-labelledby="services-title">
        <Row style={{ justifyContent: 'space-between' }}>
          <h2 id="services-title" style={{ margin: 0 }}>
            {t('services.title')}
          </h2>
          <Button type="button" variant="secondary" compact onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? <Spinner aria-hidden="true" data-testid="refresh-spinner" /> : null}
            {refreshing ? t('common.refreshing') : t('common.refresh')}
          </Button>
        </Row>
        {status.isPending ? (
          <Muted role="status" data-testid="loading">
            {t('services.loading')}
          </Muted>
        ) : null}
        {status.isError && !status.data ? (
          <LoadError
            message={t('services.failed', { reason: describeFailure(status.error) })}
            onRetry={() => void refresh()}
          />
        ) : null}
        {overall ? (
          <>
            <Row style={{ marginTop: '0.75rem' }}>
              <span>{t('services.overall')}</span>
              <StateLabel status={overall.status} />
            </Row>
            <Figures>
              <dt>{t('figures.uptime')}</dt>
              <dd>{formats.percent(overall.uptime)}</dd>
              <dt>{t('figures.requests')}</dt>
              <dd>{formats.count(overall.totalRequests)}</dd>
              <dt>{t('figures.errors')}</dt>
              <dd>{formats.count(overall.totalErrors)}</dd>
              <dt>{t('figures.averageResponse')}</dt>
              <dd>{formats.duration(overall.avgResponseTime)}</dd>
            </Figures>
            <Muted style={{ marginTop: '0.75rem' }}>
              {t('services.updated', {
                time: formats.dateTime(new Date(status.dataUpdatedAt).toISOString()),
                seconds: 30,
              })}
            </Muted>
          </>
        ) : null}
      </Card>
      {status.data && status.data.data.services.length === 0 ? <Empty>{t('services.none')}</Empty> : null}
      {status.data?.data.services.length ? (
        <Grid min="16rem">
          {status.data.data.services.map((service) => (
            <ServiceCard key={service.name} service={service} />
          ))}
        </Grid>
      ) : null}
    </div>
  );
}
