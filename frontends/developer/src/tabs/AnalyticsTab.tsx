import styled from '@emotion/styled';
import { useId, useState } from 'react';
import { isApiError, useAuth } from '@kasa/api-client';
import { useAnalytics, useAnalyticsSessions, useApiKeys, usePersonas, useUsage } from '../api/developerQueries';
import { BarList } from '../analytics/BarList';
import { DailyChart } from '../analytics/DailyChart';
import { averageSessionLength, countBars, statusLabel } from '../analytics/summaries';
import { useRefresh } from '../hooks/useRefresh';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { Button, Muted, Select } from '@kasa/ui';
import { Label, LoadingSkeleton } from '@kasa/ui/widgets';
import { Card, Grid, Row, Spinner } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 1rem;
`;

const Figures = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr));
  gap: 0.75rem 1rem;
  margin: 0;
  dt {
    color: var(--kasa-muted);
    font-size: 0.875rem;
  }
  dd {
    margin: 0;
    font-size: 1.375rem;
    font-weight: 700;
  }
`;

const Sessions = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0.25rem 1rem;
    padding: 0.5rem 0;
    border-top: 1px solid var(--kasa-border);
  }
`;

const unauthorized = (error: unknown) => isApiError(error) && error.status === 401;

function SignInNotice() {
  const t = usePanelsT();
  return (
    <Card>
      <Muted data-testid="analytics-sign-in">{t('analytics.signIn')}</Muted>
    </Card>
  );
}

function AnalyticsPanel() {
  const t = usePanelsT();
  const formats = useFormats();
  const describeFailure = useDescribeFailure();
  const filterId = useId();
  const [keyId, setKeyId] = useState<string | null>(null);
  const analytics = useAnalytics();
  const usage = useUsage(keyId);
  const sessions = useAnalyticsSessions();
  const keys = useApiKeys();
  const personas = usePersonas();
  const { refreshing, refresh } = useRefresh(() =>
    Promise.all([analytics.refetch(), usage.refetch(), sessions.refetch()]),
  );

  if ([analytics.error, usage.error, sessions.error].some(unauthorized)) return <SignInNotice />;

  const personaName = (id: string) => personas.data?.find((p) => p.id === id)?.name ?? id;
  const data = analytics.data?.data;
  const quota = data?.usage.quota;
  const usageData = usage.data?.data;

  return (
    <Stack>
      <Card aria-labelledby="analytics-title">
        <Row style={{ justifyContent: 'space-between', marginBottom: '0.75rem' }}>
          <h2 id="analytics-title" style={{ margin: 0 }}>
            {t('analytics.title')}
          </h2>
          <Button type="button" variant="secondary" compact onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? <Spinner aria-hidden="true" /> : null}
            {refreshing ? t('common.refreshing') : t('common.refresh')}
          </Button>
        </Row>
        {analytics.isPending ? <LoadingSkeleton lines={2}>{t('analytics.loading')}</LoadingSkeleton> : null}
        {analytics.isError && !unauthorized(analytics.error) ? (
          <LoadError
            message={t('analytics.failed', { reason: describeFailure(analytics.error) })}
            onRetry={() => void analytics.refetch()}
          />
        ) : null}
        {data && quota ? (
          <Figures data-testid="analytics-figures">
            <div>
              <dt>{t('analytics.quota')}</dt>
              <dd data-testid="quota-used">
                {quota.limit === null
                  ? t('analytics.quotaUnlimited', { used: quota.used })
                  : t('analytics.quotaOf', { used: quota.used, limit: quota.limit })}
              </dd>
            </div>
            <div>
              <dt>{t('analytics.totalCalls')}</dt>
              <dd>{formats.count(data.usage.totalCalls)}</dd>
            </div>
            <div>
              <dt>{t('analytics.sessions')}</dt>
              <dd>{formats.count(data.sessions)}</dd>
            </div>
            <div>
              <dt>{t('analytics.perSession')}</dt>
              <dd>{formats.oneDecimal(averageSessionLength(data.messages, data.sessions))}</dd>
            </div>
            <div>
              <dt>{t('figures.averageResponse')}</dt>
              <dd>{formats.duration(data.performance.averageResponseTime)}</dd>
            </div>
            <div>
              <dt>{t('analytics.errorRate')}</dt>
              <dd>{formats.percent(data.performance.errorRate)}</dd>
            </div>
            <div>
              <dt>{t('analytics.speechClips')}</dt>
              <dd data-testid="speech-clips">{formats.count(data.voice.speechClips)}</dd>
            </div>
            <div>
              <dt>{t('analytics.videosMade')}</dt>
              <dd data-testid="videos-made">{formats.count(data.voice.videosMade)}</dd>
            </div>
          </Figures>
        ) : null}
      </Card>

      <Card aria-labelledby="calls-title">
        <Row style={{ justifyContent: 'space-between', marginBottom: '0.75rem' }}>
          <h2 id="calls-title" style={{ margin: 0 }}>
            {t('analytics.callsTitle', { days: 30 })}
          </h2>
          <div>
            <Label htmlFor={filterId}>{t('analytics.keyFilter')}</Label>
            <Select
              id={filterId}
              value={keyId ?? ''}
              onChange={(event) => setKeyId(event.target.value || null)}
              data-testid="analytics-key-filter"
            >
              <option value="">{t('analytics.allCalls')}</option>
              {(keys.data?.keys ?? []).map((key) => (
                <option key={key.id} value={key.id}>
                  {t('analytics.keyOption', { name: key.name, masked: key.maskedKey })}
                </option>
              ))}
            </Select>
          </div>
        </Row>
        {usage.isPending ? <LoadingSkeleton lines={4}>{t('analytics.loadingCalls')}</LoadingSkeleton> : null}
        {usage.isError && !unauthorized(usage.error) ? (
          <LoadError
            message={t('analytics.callsFailed', { reason: describeFailure(usage.error) })}
            onRetry={() => void usage.refetch()}
          />
        ) : null}
        {usageData ? (
          <Stack>
            <Muted data-testid="usage-total">
              {keyId
                ? t('analytics.totalWithKey', { count: usageData.totalCalls })
                : t('analytics.total', { count: usageData.totalCalls })}
            </Muted>
            <DailyChart days={usageData.days} />
            <Grid min="18rem">
              {usageData.byEndpoint.length ? (
                <BarList
                  caption={t('analytics.byEndpoint')}
                  testId="usage-by-endpoint"
                  bars={usageData.byEndpoint.map((e) => ({ label: e.endpoint, value: e.calls }))}
                />
              ) : (
                <Empty testId="no-endpoint-usage">{t('analytics.noEndpoint')}</Empty>
              )}
              {usageData.byStatus.length ? (
                <BarList
                  caption={t('analytics.byStatus')}
                  testId="usage-by-status"
                  bars={usageData.byStatus.map((s) => ({ label: statusLabel(s.status), value: s.calls }))}
                />
              ) : (
                <Empty testId="no-status-usage">{t('analytics.noStatus')}</Empty>
              )}
            </Grid>
          </Stack>
        ) : null}
      </Card>

      <Grid min="18rem">
        <Card aria-labelledby="persona-usage-title">
          <h2 id="persona-usage-title">{t('analytics.personaUsage')}</h2>
          {data ? (
            Object.values(data.personaUsage).some((n) => n > 0) ? (
              <BarList
                caption={t('analytics.perPersona')}
                testId="persona-usage"
                bars={countBars(data.personaUsage, data.sessions, personaName)}
              />
            ) : (
              <Empty testId="no-persona-usage">{t('analytics.noPersonaUsage')}</Empty>
            )
          ) : null}
        </Card>
        <Card aria-labelledby="language-usage-title">
          <h2 id="language-usage-title">{t('analytics.languageUsage')}</h2>
          {data ? (
            Object.values(data.languageUsage).some((n) => n > 0) ? (
              <BarList
                caption={t('analytics.perLanguage')}
                testId="language-usage"
                bars={countBars(data.languageUsage)}
              />
            ) : (
              <Empty testId="no-language-usage">{t('analytics.noLanguageUsage')}</Empty>
            )
          ) : null}
        </Card>
      </Grid>

      <Card aria-labelledby="sessions-title">
        <h2 id="sessions-title">{t('analytics.recentSessions')}</h2>
        {sessions.isPending ? <LoadingSkeleton>{t('analytics.loadingSessions')}</LoadingSkeleton> : null}
        {sessions.isError && !unauthorized(sessions.error) ? (
          <LoadError
            message={t('analytics.sessionsFailed', { reason: describeFailure(sessions.error) })}
            onRetry={() => void sessions.refetch()}
          />
        ) : null}
        {sessions.data && sessions.data.data.length === 0 ? (
          <Empty testId="no-sessions">{t('analytics.noSessions')}</Empty>
        ) : null}
        {sessions.data?.data.length ? (
          <Sessions aria-label={t('analytics.recentSessions')} data-testid="analytics-sessions">
            {sessions.data.data.map((session) => {
              const persona = t('analytics.sessionWith', { persona: personaName(session.personaId) });
              return (
                <li key={session.id}>
                  <span>
                    <strong>{session.title}</strong> <Muted as="span">{persona}</Muted>
                  </span>
                  <Muted as="span">
                    {t('analytics.sessionFacts', {
                      count: session.messageCount,
                      started: formats.dateTime(session.createdAt),
                    })}
                  </Muted>
                </li>
              );
            })}
          </Sessions>
        ) : null}
      </Card>
    </Stack>
  );
}

/** Analytics: the signed-in person's usage; signed out, a line asking to sign in (spec: analytics panel). */
export default function AnalyticsTab() {
  const t = usePanelsT();
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <Loading>{t('common.loading')}</Loading>;
  if (!isAuthenticated) return <SignInNotice />;
  return <AnalyticsPanel />;
}
