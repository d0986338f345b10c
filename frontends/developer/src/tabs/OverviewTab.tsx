import styled from '@emotion/styled';
import type { Language } from '@kasa/contracts';
import { AFRICAN_LANGUAGES } from '@kasa/contracts/src/africanLanguages';
import { useLanguages, usePersonas, useServicesStatus } from '../api/developerQueries';
import { formatCount, formatDuration, formatPercent } from '../status/serviceState';
import { Badge, Card, Grid, Muted } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';

/** The six African languages the product highlights (spec section 1), by their catalogue codes. */
export const AFRICAN_LANGUAGE_CODES = AFRICAN_LANGUAGES.map((language) => language.code);

/** The per-minute limit of every key or user on the API routes (gateway API_RATE_LIMIT_PER_MINUTE, spec 9). */
export const RATE_LIMIT_PER_MINUTE = 1000;

const Stat = styled(Card)`
  p {
    margin: 0;
  }
  .value {
    font-size: 1.75rem;
    font-weight: 700;
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  li {
    display: flex;
    justify-content: space-between;
    align-items: center;
    gap: 0.75rem;
  }
`;

const Chips = styled.ul`
  list-style: none;
  margin: 0 0 0.75rem;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  li {
    padding: 0.25rem 0.625rem;
    border: 2px solid var(--kasa-primary);
    border-radius: var(--kasa-radius);
    background: var(--kasa-surface-muted);
  }
`;

const Metrics = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 0.375rem 1rem;
  margin: 0;
  dt {
    color: var(--kasa-muted);
  }
  dd {
    margin: 0;
    font-weight: 600;
    text-align: right;
  }
`;

function StatCard({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Stat aria-label={label} data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Muted>{label}</Muted>
      <p className="value">{value}</p>
      <Muted>{note}</Muted>
    </Stat>
  );
}

const capabilityWords = (language: Language) =>
  (['chat', 'speak', 'listen', 'translate'] as const).filter((c) => language.capabilities[c]).join(', ') ||
  'detect only';

/** Overview: figures from the running platform, the personas, the languages and how the API performs. */
export default function OverviewTab() {
  const personas = usePersonas();
  const languages = useLanguages();
  const status = useServicesStatus();
  const overall = status.data?.data.overall;
  const statusNote = status.isError && !status.data ? 'status unavailable' : 'from the status service';
  const african = (languages.data?.languages ?? []).filter((l) =>
    (AFRICAN_LANGUAGE_CODES as readonly string[]).includes(l.code),
  );

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Grid min="12rem">
        <StatCard
          label="Personas"
          value={personas.data ? String(personas.data.length) : personas.isError ? '–' : '…'}
          note="ready to chat"
        />
        <StatCard
          label="Languages"
          value={languages.data ? String(languages.data.count) : languages.isError ? '–' : '…'}
          note={`${AFRICAN_LANGUAGE_CODES.length} African languages`}
        />
        <StatCard label="Uptime" value={overall ? formatPercent(overall.uptime) : '…'} note={statusNote} />
        <StatCard
          label="API calls"
          value={overall ? formatCount(overall.totalRequests) : '…'}
          note="served by the platform"
        />
      </Grid>
      <Grid min="18rem">
        <Card aria-labelledby="overview-personas">
          <h2 id="overview-personas">Personas</h2>
          {personas.isPending ? <Loading>Loading personas…</Loading> : null}
          {personas.isError ? (
            <LoadError what="the personas" error={personas.error} onRetry={() => void personas.refetch()} />
          ) : null}
          {personas.data && personas.data.length === 0 ? <Empty>No personas are available.</Empty> : null}
          {personas.data?.length ? (
            <List data-testid="overview-personas">
              {personas.data.map((persona) => (
                <li key={persona.id}>
                  <span>
                    <strong>{persona.name}</strong> <Muted as="span">{persona.expertise}</Muted>
                  </span>
                  <Badge>Active</Badge>
                </li>
              ))}
            </List>
          ) : null}
        </Card>
        <Card aria-labelledby="overview-languages">
          <h2 id="overview-languages">Languages</h2>
          {languages.isPending ? <Loading>Loading languages…</Loading> : null}
          {languages.isError ? (
            <LoadError what="the languages" error={languages.error} onRetry={() => void languages.refetch()} />
          ) : null}
          {languages.data ? (
            <>
              <Muted>African languages</Muted>
              {african.length ? (
                <Chips data-testid="african-languages">
                  {african.map((language) => (
                    <li key={language.code} title={capabilityWords(language)}>
                      <strong>{language.name}</strong> <span lang={language.code}>({language.nativeName})</span>
                    </li>
                  ))}
                </Chips>
              ) : (
                <Empty>None of the African languages is available on this platform.</Empty>
              )}
              <Muted>{`${languages.data.count} languages in all; GET /api/languages says what Kasa can do in each.`}</Muted>
            </>
          ) : null}
        </Card>
        <Card aria-labelledby="overview-performance">
          <h2 id="overview-performance">Performance</h2>
          {status.isPending ? <Loading>Loading performance…</Loading> : null}
          {status.isError && !status.data ? (
            <LoadError what="the performance figures" error={status.error} onRetry={() => void status.refetch()} />
          ) : null}
          <Metrics>
            <dt>Average response time</dt>
            <dd data-testid="avg-response-time">{overall ? formatDuration(overall.avgResponseTime) : '–'}</dd>
            <dt>Uptime</dt>
            <dd>{overall ? formatPercent(overall.uptime) : '–'}</dd>
            <dt>Rate limit</dt>
            <dd>{`${formatCount(RATE_LIMIT_PER_MINUTE)} requests/min`}</dd>
          </Metrics>
        </Card>
      </Grid>
    </div>
  );
}
