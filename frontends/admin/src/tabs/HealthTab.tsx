import styled from '@emotion/styled';
import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isApiError, tierLabel } from '@kasa/api-client';
import type {
  AdminHealthResponse,
  AdminServiceHealth,
  AdminUsageKey,
  AdminUsagePerson,
  ServiceWindowFigures,
} from '@kasa/contracts';
import { Button, CircleCheck, CircleHelp, CircleX, ICON, Muted, Select, TriangleAlert } from '@kasa/ui';
import { CopyButton } from '@kasa/ui/widgets';
import { useHealth, usePerson, useUsage } from '../api/adminQueries';
import { useBase } from '../base';
import {
  STATE_COLOURS,
  STATE_LABELS,
  displayState,
  isAccountId,
  monthFromSearch,
  recentMonths,
  serviceName,
  type DisplayState,
} from '../health/healthView';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats, type Formats } from '../i18n/format';
import { useT } from '../i18n/useT';
import { Badge, Facts, FormField, ItemList, Mono, Panel, Row, Stack } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';

/** Months the usage can be asked for: the status service keeps a month as long as its people's usage (90 days). */
const MONTHS_OFFERED = 12;

const STATE_ICONS = {
  operational: CircleCheck,
  degraded: TriangleAlert,
  down: CircleX,
  unknown: CircleHelp,
} as const;

const StateMark = styled.span<{ state: DisplayState }>`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  font-weight: 600;
  svg {
    flex: none;
    color: ${({ state }) => STATE_COLOURS[state]};
  }
`;

/** A state as an icon of its own and its word (never colour alone). */
function State({ status }: { status: string }) {
  const t = useT();
  const state = displayState(status);
  const Icon = STATE_ICONS[state];
  return (
    <StateMark state={state} data-testid="state" data-state={state}>
      <Icon {...ICON} />
      {t(STATE_LABELS[state])}
    </StateMark>
  );
}

const Figures = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.875rem;
  font-variant-numeric: tabular-nums;
  caption {
    text-align: start;
    color: var(--kasa-muted);
    padding-bottom: 0.25rem;
  }
  th,
  td {
    padding: 0.25rem 0.5rem 0.25rem 0;
    text-align: end;
    border-top: 1px solid var(--kasa-border);
  }
  th:first-of-type {
    text-align: start;
    font-weight: 400;
    color: var(--kasa-muted);
  }
  thead th {
    border-top: 0;
    font-weight: 600;
    color: var(--kasa-fg);
  }
`;

/** Calls, 4xx, 5xx and latency of the last hour and the last 24 hours, side by side. */
function WindowTable({
  caption,
  lastHour,
  lastDay,
}: {
  caption: string;
  lastHour: ServiceWindowFigures;
  lastDay: ServiceWindowFigures;
}) {
  const t = useT();
  const formats = useFormats();
  const rows: Array<[string, (f: ServiceWindowFigures) => string]> = [
    [t('health.requests'), (f) => formats.count(f.requests)],
    [t('health.clientErrors'), (f) => formats.count(f.clientErrors)],
    [t('health.serverErrors'), (f) => formats.count(f.serverErrors)],
    [t('health.average'), (f) => formats.ms(f.averageMs)],
    [t('health.p95'), (f) => formats.ms(f.p95Ms)],
  ];
  return (
    <Figures>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('health.figure')}</th>
          <th scope="col">{t('health.lastHour')}</th>
          <th scope="col">{t('health.lastDay')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value(lastHour)}</td>
            <td>{value(lastDay)}</td>
          </tr>
        ))}
      </tbody>
    </Figures>
  );
}

const ServiceGrid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr));
  > li {
    min-width: 0;
    padding: 0.875rem;
    border: 1px solid var(--kasa-border);
    border-radius: var(--kasa-radius);
  }
  h4 {
    margin: 0;
    font-size: 1rem;
  }
`;

function ServiceItem({ service }: { service: AdminServiceHealth }) {
  const t = useT();
  const formats = useFormats();
  const name = serviceName(t, service.name);
  return (
    <li data-testid="service-health" data-service={service.name}>
      <Row style={{ justifyContent: 'space-between' }}>
        <h4>{name}</h4>
        <State status={service.status} />
      </Row>
      <Facts>
        <div>
          <dt>{t('health.uptime24h')}</dt>
          <dd>{formats.uptime(service.uptime24h)}</dd>
        </div>
        <div>
          <dt>{t('health.uptime30d')}</dt>
          <dd>{formats.uptime(service.uptime30d)}</dd>
        </div>
        <div>
          <dt>{t('health.lastResponse')}</dt>
          <dd>{formats.dateTime(service.lastResponse)}</dd>
        </div>
      </Facts>
      <WindowTable
        caption={t('health.figures', { service: name })}
        lastHour={service.lastHour}
        lastDay={service.lastDay}
      />
    </li>
  );
}

/** The platform as a whole, its five services and their parts. */
function HealthBody({ health }: { health: AdminHealthResponse }) {
  const t = useT();
  const formats = useFormats();
  const overall = t('health.overall');
  return (
    <Stack>
      <section aria-label={overall} data-testid="health-overall">
        <Row style={{ justifyContent: 'space-between' }}>
          <h3 style={{ margin: 0 }}>{overall}</h3>
          <State status={health.overall.status} />
        </Row>
        <Facts>
          <div>
            <dt>{t('health.uptime24h')}</dt>
            <dd>{formats.uptime(health.overall.uptime24h)}</dd>
          </div>
          <div>
            <dt>{t('health.uptime30d')}</dt>
            <dd>{formats.uptime(health.overall.uptime30d)}</dd>
          </div>
        </Facts>
        <WindowTable
          caption={t('health.allCalls')}
          lastHour={health.overall.lastHour}
          lastDay={health.overall.lastDay}
        />
      </section>
      <section aria-labelledby="admin-health-services">
        <h3 id="admin-health-services">{t('health.services')}</h3>
        <ServiceGrid data-testid="health-services">
          {health.services.map((service) => (
            <ServiceItem key={service.name} service={service} />
          ))}
        </ServiceGrid>
      </section>
      {health.parts.length > 0 ? (
        <section aria-labelledby="admin-health-parts">
          <h3 id="admin-health-parts">{t('health.parts')}</h3>
          <ItemList data-testid="health-parts">
            {health.parts.map((part) => (
              <li key={part.name} data-testid="health-part" data-part={part.name}>
                <Row style={{ justifyContent: 'space-between' }}>
                  <span>
                    {serviceName(t, part.name)} <Muted as="span">{part.provider}</Muted>
                  </span>
                  <State status={part.status} />
                </Row>
              </li>
            ))}
          </ItemList>
        </section>
      ) : null}
    </Stack>
  );
}

function HealthPanel() {
  const t = useT();
  const formats = useFormats();
  const describe = useDescribeFailure();
  const health = useHealth();

  let body;
  if (health.isPending) body = <Loading>{t('health.loading')}</Loading>;
  else if (health.isError && !health.data)
    body = (
      <LoadError
        message={t('health.loadFailed', { reason: describe('load', health.error) })}
        onRetry={() => void health.refetch()}
      />
    );
  else body = <HealthBody health={health.data!} />;

  return (
    <Panel aria-labelledby="admin-health-title" data-testid="health-panel">
      <Row style={{ justifyContent: 'space-between', marginBottom: '0.75rem' }}>
        <h2 id="admin-health-title" style={{ margin: 0 }}>
          {t('health.title')}
        </h2>
        <Button
          type="button"
          variant="ghost"
          compact
          disabled={health.isFetching}
          onClick={() => void health.refetch()}
        >
          {health.isFetching && !health.isPending ? t('common.refreshing') : t('common.refresh')}
        </Button>
      </Row>
      <Stack>
        <Muted>{t('health.intro')}</Muted>
        {health.data ? <Muted>{t('health.checked', { time: formats.dateTime(health.data.checkedAt) })}</Muted> : null}
        {health.isError && health.data ? (
          <LoadError
            message={t('health.loadFailed', { reason: describe('load', health.error) })}
            onRetry={() => void health.refetch()}
          />
        ) : null}
        {body}
      </Stack>
    </Panel>
  );
}

/** Calls and errors of one person or key, in words. */
function CallFigures({
  entry,
  formats,
}: {
  entry: { calls: number; clientErrors: number; serverErrors: number };
  formats: Formats;
}) {
  const t = useT();
  return (
    <Row data-testid="usage-figures">
      <strong>{t('usage.callsValue', { count: entry.calls })}</strong>
      <Muted as="span">
        {t('usage.errorsValue', {
          clientErrors: formats.count(entry.clientErrors),
          serverErrors: formats.count(entry.serverErrors),
        })}
      </Muted>
    </Row>
  );
}

/** An id that the console cannot open, with a button that copies it. */
function CopyableId({ id, context }: { id: string; context: string }) {
  return (
    <Row>
      <Mono>{id}</Mono>
      <CopyButton text={id} context={context} />
    </Row>
  );
}

/** A person in the top list: name, e-mail and plan as auth has them, linked to their page; the id meanwhile. */
function PersonLeader({ entry }: { entry: AdminUsagePerson }) {
  const t = useT();
  const base = useBase();
  const formats = useFormats();
  const account = entry.kind === 'person' && isAccountId(entry.id);
  const person = usePerson(entry.id, account);
  const known = account && person.data ? person.data : null;
  return (
    <li data-testid="usage-person" data-person={entry.id}>
      <Stack style={{ gap: '0.25rem' }}>
        {entry.kind === 'team' ? (
          <>
            <strong>{t('usage.team', { id: entry.id.slice(entry.id.indexOf(':') + 1) })}</strong>
            <CopyableId id={entry.id} context={t('usage.teamId')} />
          </>
        ) : account ? (
          <Row>
            <Link to={`${base}/people/${encodeURIComponent(entry.id)}`}>
              {known ? <strong>{known.username}</strong> : <Mono>{entry.id}</Mono>}
            </Link>
            {known ? <span>{known.email}</span> : null}
            {known ? <Badge>{tierLabel(known.tier)}</Badge> : null}
          </Row>
        ) : (
          <CopyableId id={entry.id} context={t('usage.accountId')} />
        )}
        {account && isApiError(person.error) && person.error.status === 404 ? (
          <Muted as="span">{t('usage.personGone')}</Muted>
        ) : null}
        <CallFigures entry={entry} formats={formats} />
      </Stack>
    </li>
  );
}

/** A key in the top list: its name and prefix as its creator's account lists it, and who created it. */
function KeyLeader({ entry }: { entry: AdminUsageKey }) {
  const t = useT();
  const base = useBase();
  const formats = useFormats();
  const ownerId = entry.createdBy ?? (isAccountId(entry.callerId) ? entry.callerId : null);
  const owner = usePerson(ownerId ?? '', !!ownerId && isAccountId(ownerId));
  const key = owner.data?.apiKeys.find((k) => k.id === entry.keyId);
  return (
    <li data-testid="usage-key" data-key={entry.keyId}>
      <Stack style={{ gap: '0.25rem' }}>
        <Row>
          <strong>{key?.name ?? t('usage.unnamedKey')}</strong>
          {key ? <Mono>{key.prefix}</Mono> : null}
          {entry.revoked ? <Badge tone="danger">{t('usage.revoked')}</Badge> : null}
        </Row>
        <CopyableId id={entry.keyId} context={t('usage.keyId')} />
        {ownerId && isAccountId(ownerId) ? (
          <Muted as="span">
            <Link to={`${base}/people/${encodeURIComponent(ownerId)}`}>
              {t('usage.createdBy', { name: owner.data?.username ?? ownerId })}
            </Link>
          </Muted>
        ) : null}
        <CallFigures entry={entry} formats={formats} />
      </Stack>
    </li>
  );
}

/** A top list: most calls first. */
const Leaders = ItemList.withComponent('ol');

const Columns = styled.div`
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 24rem), 1fr));
  h3 {
    margin: 0 0 0.5rem;
  }
`;

/** A month's totals and its top people and keys, with the month to show in the address (`?month=`). */
function UsagePanel() {
  const t = useT();
  const formats = useFormats();
  const describe = useDescribeFailure();
  const id = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const now = useMemo(() => new Date(), []);
  const month = monthFromSearch(searchParams, now);
  // The months offered, and the one in the address when it is older (a link kept from earlier).
  const recent = useMemo(() => recentMonths(now, MONTHS_OFFERED), [now]);
  const months = recent.includes(month) ? recent : [...recent, month];
  const usage = useUsage(month);
  const monthName = formats.month(month);

  const choose = (next: string) => {
    const params = new URLSearchParams(searchParams);
    if (next === recent[0]) params.delete('month');
    else params.set('month', next);
    setSearchParams(params);
  };

  let body;
  if (usage.isPending) body = <Loading>{t('usage.loading')}</Loading>;
  else if (usage.isError && !usage.data)
    body = (
      <LoadError
        message={t('usage.loadFailed', { reason: describe('load', usage.error) })}
        onRetry={() => void usage.refetch()}
      />
    );
  else {
    const data = usage.data!;
    const { totals } = data;
    body =
      totals.calls === 0 && data.people.length === 0 ? (
        <Empty testId="usage-empty">{t('usage.empty', { month: monthName })}</Empty>
      ) : (
        <Stack>
          <section aria-label={t('usage.totals', { month: monthName })} data-testid="usage-totals">
            <Facts>
              <div>
                <dt>{t('health.requests')}</dt>
                <dd data-testid="usage-calls">{formats.count(totals.calls)}</dd>
              </div>
              <div>
                <dt>{t('health.clientErrors')}</dt>
                <dd>{formats.count(totals.clientErrors)}</dd>
              </div>
              <div>
                <dt>{t('health.serverErrors')}</dt>
                <dd>{formats.count(totals.serverErrors)}</dd>
              </div>
              <div>
                <dt>{t('usage.quotaCalls')}</dt>
                <dd>{formats.count(totals.quotaCalls)}</dd>
              </div>
              <div>
                <dt>{t('usage.keyCalls')}</dt>
                <dd>{formats.count(totals.keyCalls)}</dd>
              </div>
              <div>
                <dt>{t('health.average')}</dt>
                <dd>{formats.ms(totals.averageMs)}</dd>
              </div>
            </Facts>
          </section>
          <Columns>
            <section aria-labelledby={`${id}-people`}>
              <h3 id={`${id}-people`}>{t('usage.topPeople')}</h3>
              {data.people.length === 0 ? (
                <Empty testId="usage-people-empty">{t('usage.noPeople')}</Empty>
              ) : (
                <Leaders data-testid="usage-people">
                  {data.people.map((entry) => (
                    <PersonLeader key={entry.id} entry={entry} />
                  ))}
                </Leaders>
              )}
            </section>
            <section aria-labelledby={`${id}-keys`}>
              <h3 id={`${id}-keys`}>{t('usage.topKeys')}</h3>
              {data.keys.length === 0 ? (
                <Empty testId="usage-keys-empty">{t('usage.noKeys')}</Empty>
              ) : (
                <Leaders data-testid="usage-keys">
                  {data.keys.map((entry) => (
                    <KeyLeader key={`${entry.callerId} ${entry.keyId}`} entry={entry} />
                  ))}
                </Leaders>
              )}
            </section>
          </Columns>
          {data.updatedAt ? <Muted>{t('usage.updated', { time: formats.dateTime(data.updatedAt) })}</Muted> : null}
        </Stack>
      );
  }

  return (
    <Panel aria-labelledby="admin-usage-title" data-testid="usage-panel">
      <Row style={{ justifyContent: 'space-between', alignItems: 'flex-end', marginBottom: '0.75rem' }}>
        <h2 id="admin-usage-title" style={{ margin: 0 }}>
          {t('usage.title')}
        </h2>
        <Row style={{ alignItems: 'flex-end' }}>
          <FormField style={{ marginBottom: 0 }}>
            <label htmlFor={`${id}-month`}>{t('usage.month')}</label>
            <Select id={`${id}-month`} value={month} onChange={(event) => choose(event.target.value)}>
              {months.map((value) => (
                <option key={value} value={value}>
                  {formats.month(value)}
                </option>
              ))}
            </Select>
          </FormField>
          <Button
            type="button"
            variant="ghost"
            compact
            disabled={usage.isFetching}
            onClick={() => void usage.refetch()}
          >
            {usage.isFetching && !usage.isPending ? t('common.refreshing') : t('common.refresh')}
          </Button>
        </Row>
      </Row>
      {body}
    </Panel>
  );
}

/**
 * The platform's health and usage: each service's state, uptime and calls (1 hour, 24 hours), its parts, and a
 * month's totals with the people and API keys that made the most calls (a person opens in People).
 */
export default function HealthTab() {
  return (
    <Stack>
      <HealthPanel />
      <UsagePanel />
    </Stack>
  );
}
