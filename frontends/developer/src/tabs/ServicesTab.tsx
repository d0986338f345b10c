import styled from '@emotion/styled';
import type { ServiceStatus } from '@kasa/contracts';
import { useServicesStatus } from '../api/developerQueries';
import { useRefresh } from '../hooks/useRefresh';
import {
  displayState,
  formatCount,
  formatDuration,
  formatPercent,
  formatTime,
  serviceName,
  STATE_COLOURS,
  STATE_LABELS,
  STATE_MARKS,
} from '../status/serviceState';
import { Button, Card, Grid, Muted, Row, Spinner } from '../ui/controls';
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
  const state = displayState(status);
  return (
    <State colour={STATE_COLOURS[state]} data-state={state}>
      <span className="mark" aria-hidden="true">
        {STATE_MARKS[state]}
      </span>
      {STATE_LABELS[state]}
    </State>
  );
}

/** `lastResponse` is a time when the service has answered a probe; anything else is shown as it came. */
function lastResponseText(value: string | null): string {
  if (!value) return 'no answer yet';
  return Number.isNaN(Date.parse(value)) ? value : formatTime(value);
}

function ServiceCard({ service }: { service: ServiceStatus }) {
  return (
    <Card aria-labelledby={`service-${service.name}`} data-testid={`service-${service.name}`}>
      <Row style={{ justifyContent: 'space-between' }}>
        <h3 id={`service-${service.name}`} style={{ margin: 0 }}>
          {serviceName(service.name)}
        </h3>
        <StateLabel status={service.status} />
      </Row>
      {service.provider ? <Muted>{service.provider}</Muted> : null}
      <Figures>
        <dt>Uptime</dt>
        <dd>{formatPercent(service.uptime)}</dd>
        <dt>Requests</dt>
        <dd>{formatCount(service.requests)}</dd>
        <dt>Errors</dt>
        <dd>{formatCount(service.errors)}</dd>
        <dt>Last response</dt>
        <dd>{lastResponseText(service.lastResponse)}</dd>
      </Figures>
    </Card>
  );
}

/** Services: the status panel. Refreshes by itself every 30 s; Refresh asks at once. */
export default function ServicesTab() {
  const status = useServicesStatus();
  const { refreshing, refresh } = useRefresh(() => status.refetch());
  const overall = status.data?.data.overall;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Card aria-labelledby="services-title">
        <Row style={{ justifyContent: 'space-between' }}>
          <h2 id="services-title" style={{ margin: 0 }}>
            Service orchestration status
          </h2>
          <Button type="button" variant="secondary" compact onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? <Spinner aria-hidden="true" data-testid="refresh-spinner" /> : null}
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </Button>
        </Row>
        {status.isPending ? (
          <Muted role="status" data-testid="loading">
            Loading service status...
          </Muted>
        ) : null}
        {status.isError && !status.data ? (
          <LoadError what="the service status" error={status.error} onRetry={() => void refresh()} />
        ) : null}
        {overall ? (
          <>
            <Row style={{ marginTop: '0.75rem' }}>
              <span>Overall:</span>
              <StateLabel status={overall.status} />
            </Row>
            <Figures>
              <dt>Uptime</dt>
              <dd>{formatPercent(overall.uptime)}</dd>
              <dt>Requests</dt>
              <dd>{formatCount(overall.totalRequests)}</dd>
              <dt>Errors</dt>
              <dd>{formatCount(overall.totalErrors)}</dd>
              <dt>Average response time</dt>
              <dd>{formatDuration(overall.avgResponseTime)}</dd>
            </Figures>
            <Muted style={{ marginTop: '0.75rem' }}>
              {`Updated ${formatTime(new Date(status.dataUpdatedAt).toISOString())}; refreshes every 30 seconds.`}
            </Muted>
          </>
        ) : null}
      </Card>
      {status.data && status.data.data.services.length === 0 ? <Empty>No services have reported yet.</Empty> : null}
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
