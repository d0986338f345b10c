import styled from '@emotion/styled';
import type { Language } from '@kasa/contracts';
import { AFRICAN_LANGUAGES } from '@kasa/contracts/src/africanLanguages';
import { useLanguages, usePersonas, useServicesStatus } from '../api/developerQueries';
import { NONE, useFormats } from '../i18n/format';
import { useDescribeFailure } from '../i18n/describeFailure';
import { personaExpertise } from '../i18n/personaText';
import { useT, type MessageId, type Translate } from '../i18n/useT';
import { Muted } from '@kasa/ui';
import { Badge, Card, Grid } from '../ui/controls';
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

/** What a figure shows while it loads. */
const PENDING = '…';

function StatCard({ id, label, value, note }: { id: string; label: string; value: string; note: string }) {
  return (
    <Stat aria-label={label} data-testid={`stat-${id}`}>
      <Muted>{label}</Muted>
      <p className="value">{value}</p>
      <Muted>{note}</Muted>
    </Stat>
  );
}

const CAPABILITIES = {
  chat: 'overview.capability.chat',
  speak: 'overview.capability.speak',
  listen: 'overview.capability.listen',
  translate: 'overview.capability.translate',
} as const satisfies Record<string, MessageId>;

/** What Kasa can do in a language, in words: `chat, speak, listen`, or `detect only`. */
function capabilityWords(t: Translate, list: (items: readonly string[]) => string, language: Language): string {
  const words = (Object.keys(CAPABILITIES) as Array<keyof typeof CAPABILITIES>)
    .filter((capability) => language.capabilities[capability])
    .map((capability) => t(CAPABILITIES[capability]));
  return words.length ? list(words) : t('overview.capability.detectOnly');
}

/** Overview: figures from the running platform, the personas, the languages and how the API performs. */
export default function OverviewTab() {
  const t = useT();
  const formats = useFormats();
  const describeFailure = useDescribeFailure();
  const personas = usePersonas();
  const languages = useLanguages();
  const status = useServicesStatus();
  const overall = status.data?.data.overall;
  const statusNote = status.isError && !status.data ? t('overview.statusUnavailable') : t('overview.statusNote');
  const african = (languages.data?.languages ?? []).filter((l) =>
    (AFRICAN_LANGUAGE_CODES as readonly string[]).includes(l.code),
  );

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Grid min="12rem">
        <StatCard
          id="personas"
          label={t('overview.personas')}
          value={personas.data ? formats.count(personas.data.length) : personas.isError ? NONE : PENDING}
          note={t('overview.personasNote')}
        />
        <StatCard
          id="languages"
          label={t('overview.languages')}
          value={languages.data ? formats.count(languages.data.count) : languages.isError ? NONE : PENDING}
          note={t('overview.languagesNote', { count: AFRICAN_LANGUAGE_CODES.length })}
        />
        <StatCard
          id="uptime"
          label={t('figures.uptime')}
          value={overall ? formats.percent(overall.uptime) : PENDING}
          note={statusNote}
        />
        <StatCard
          id="api-calls"
          label={t('overview.apiCalls')}
          value={overall ? formats.count(overall.totalRequests) : PENDING}
          note={t('overview.apiCallsNote')}
        />
      </Grid>
      <Grid min="18rem">
        <Card aria-labelledby="overview-personas">
          <h2 id="overview-personas">{t('overview.personas')}</h2>
          {personas.isPending ? <Loading>{t('overview.loadingPersonas')}</Loading> : null}
          {personas.isError ? (
            <LoadError
              message={t('overview.personasFailed', { reason: describeFailure(personas.error) })}
              onRetry={() => void personas.refetch()}
            />
          ) : null}
          {personas.data && personas.data.length === 0 ? <Empty>{t('overview.noPersonas')}</Empty> : null}
          {personas.data?.length ? (
            <List data-testid="overview-personas">
              {personas.data.map((persona) => (
                <li key={persona.id}>
                  <span>
                    <strong>{persona.name}</strong> <Muted as="span">{personaExpertise(t, persona)}</Muted>
                  </span>
                  <Badge>{t('overview.active')}</Badge>
                </li>
              ))}
            </List>
          ) : null}
        </Card>
        <Card aria-labelledby="overview-languages">
          <h2 id="overview-languages">{t('overview.languages')}</h2>
          {languages.isPending ? <Loading>{t('overview.loadingLanguages')}</Loading> : null}
          {languages.isError ? (
            <LoadError
              message={t('overview.languagesFailed', { reason: describeFailure(languages.error) })}
              onRetry={() => void languages.refetch()}
            />
          ) : null}
          {languages.data ? (
            <>
              <Muted>{t('overview.african')}</Muted>
              {african.length ? (
                <Chips data-testid="african-languages">
                  {african.map((language) => {
                    const native = t('overview.nativeName', { name: language.nativeName });
                    return (
                      <li key={language.code} title={capabilityWords(t, formats.list, language)}>
                        <strong>{language.name}</strong> <span lang={language.code}>{native}</span>
                      </li>
                    );
                  })}
                </Chips>
              ) : (
                <Empty>{t('overview.noAfrican')}</Empty>
              )}
              <Muted>{t('overview.languagesInAll', { count: languages.data.count })}</Muted>
            </>
          ) : null}
        </Card>
        <Card aria-labelledby="overview-performance">
          <h2 id="overview-performance">{t('overview.performance')}</h2>
          {status.isPending ? <Loading>{t('overview.loadingPerformance')}</Loading> : null}
          {status.isError && !status.data ? (
            <LoadError
              message={t('overview.performanceFailed', { reason: describeFailure(status.error) })}
              onRetry={() => void status.refetch()}
            />
          ) : null}
          <Metrics>
            <dt>{t('figures.averageResponse')}</dt>
            <dd data-testid="avg-response-time">{overall ? formats.duration(overall.avgResponseTime) : NONE}</dd>
            <dt>{t('figures.uptime')}</dt>
            <dd>{overall ? formats.percent(overall.uptime) : NONE}</dd>
            <dt>{t('overview.rateLimit')}</dt>
            <dd>{t('overview.rateLimitValue', { count: RATE_LIMIT_PER_MINUTE })}</dd>
          </Metrics>
        </Card>
      </Grid>
    </div>
  );
}
