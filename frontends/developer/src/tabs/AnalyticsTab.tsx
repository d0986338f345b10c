import styled from '@emotion/styled';
import { useId, useState } from 'react';
import { isApiError, useAuth } from '@kasa/api-client';
import { useAnalytics, useAnalyticsSessions, useApiKeys, usePersonas, useUsage } from '../api/developerQueries';
import { BarList } from '../analytics/BarList';
import { DailyChart } from '../analytics/DailyChart';
import { averageSessionLength, countBars, statusLabel } from '../analytics/summaries';
import { useRefresh } from '../hooks/useRefresh';
import { formatCount, formatDuration, formatPercent, formatTime } from '../status/serviceState';
import { Button, Card, Grid, Label, Muted, Row, Select, Spinner } from '../ui/controls';
import { Empty, LoadError, Loading, LoadingSkeleton } from '../ui/States';

const SIGN_IN_TEXT = 'Please sign in to view analytics data.';

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
  return (
    <Card>
      <Muted data-testid="analytics-sign-in">{SIGN_IN_TEXT}</Muted>
    </Card>
  );
}

function AnalyticsPanel() {
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
            Your usage
          </h2>
          <Button type="button" variant="secondary" compact onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? <Spinner aria-hidden="true" /> : null}
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </Button>
        </Row>
        {analytics.isPending ? <LoadingSkeleton lines={2}>Loading analytics…</LoadingSkeleton> : null}
        {analytics.isError && !unauthorized(analytics.error) ? (
          <LoadError what="your analytics" error={analytics.error} onRetry={() => void analytics.refetch()} />
        ) : null}
        {data && quota ? (
          <Figures data-testid="analytics-figures">
            <div>
              <dt>API calls this month</dt>
              <dd data-testid="quota-used">
                {quota.limit === null
                  ? `${formatCount(quota.used)} (unlimited)`
                  : `${formatCount(quota.used)} / ${formatCount(quota.limit)}`}
              </dd>
            </div>
            <div>
              <dt>Calls, all time</dt>
              <dd>{formatCount(data.usage.totalCalls)}</dd>
            </div>
            <div>
              <dt>Chat sessions</dt>
              <dd>{formatCount(data.sessions)}</dd>
            </div>
            <div>
              <dt>Messages per session</dt>
              <dd>{averageSessionLength(data.messages, data.sessions)}</dd>
            </div>
            <div>
              <dt>Average response time</dt>
              <dd>{formatDuration(data.performance.averageResponseTime)}</dd>
            </div>
            <div>
              <dt>Error rate</dt>
              <dd>{formatPercent(data.performance.errorRate)}</dd>
            </div>
          </Figures>
        ) : null}
      </Card>

      <Card aria-labelledby="calls-title">
        <Row style={{ justifyContent: 'space-between', marginBottom: '0.75rem' }}>
          <h2 id="calls-title" style={{ margin: 0 }}>
            API calls, last 30 days
          </h2>
          <div>
            <Label htmlFor={filterId}>API key</Label>
            <Select
              id={filterId}
              value={keyId ?? ''}
              onChange={(event) => setKeyId(event.target.value || null)}
              data-testid="analytics-key-filter"
            >
              <option value="">All calls</option>
              {(keys.data?.keys ?? []).map((key) => (
                <option key={key.id} value={key.id}>
                  {`${key.name} (${key.maskedKey})`}
                </option>
              ))}
            </Select>
          </div>
        </Row>
        {usage.isPending ? <LoadingSkeleton lines={4}>Loading API calls…</LoadingSkeleton> : null}
        {usage.isError && !unauthorized(usage.error) ? (
          <LoadError what="your API calls" error={usage.error} onRetry={() => void usage.refetch()} />
        ) : null}
        {usageData ? (
          <Stack>
            <Muted data-testid="usage-total">{`${formatCount(usageData.totalCalls)} calls${keyId ? ' with this key' : ''}`}</Muted>
            <DailyChart days={usageData.days} />
            <Grid min="18rem">
              {usageData.byEndpoint.length ? (
                <BarList
                  caption="By endpoint"
                  testId="usage-by-endpoint"
                  bars={usageData.byEndpoint.map((e) => ({ label: e.endpoint, value: e.calls }))}
                />
              ) : (
                <Empty testId="no-endpoint-usage">No calls to any endpoint yet.</Empty>
              )}
              {usageData.byStatus.length ? (
                <BarList
                  caption="By status"
                  testId="usage-by-status"
                  bars={usageData.byStatus.map((s) => ({ label: statusLabel(s.status), value: s.calls }))}
                />
              ) : (
                <Empty testId="no-status-usage">No answers recorded yet.</Empty>
              )}
            </Grid>
          </Stack>
        ) : null}
      </Card>

      <Grid min="18rem">
        <Card aria-labelledby="persona-usage-title">
          <h2 id="persona-usage-title">Persona usage</h2>
          {data ? (
            Object.values(data.personaUsage).some((n) => n > 0) ? (
              <BarList
                caption="Sessions per persona"
                testId="persona-usage"
                bars={countBars(data.personaUsage, data.sessions, personaName)}
              />
            ) : (
              <Empty testId="no-persona-usage">No persona usage data available</Empty>
            )
          ) : null}
        </Card>
        <Card aria-labelledby="language-usage-title">
          <h2 id="language-usage-title">Language usage</h2>
          {data ? (
            Object.values(data.languageUsage).some((n) => n > 0) ? (
              <BarList
                caption="Your messages per language"
                testId="language-usage"
                bars={countBars(data.languageUsage)}
              />
            ) : (
              <Empty testId="no-language-usage">No language usage data available</Empty>
            )
          ) : null}
        </Card>
      </Grid>

      <Card aria-labelledby="sessions-title">
        <h2 id="sessions-title">Recent sessions</h2>
        {sessions.isPending ? <LoadingSkeleton>Loading sessions…</LoadingSkeleton> : null}
        {sessions.isError && !unauthorized(sessions.error) ? (
          <LoadError what="your sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : null}
        {sessions.data && sessions.data.data.length === 0 ? (
          <Empty testId="no-sessions">No chat sessions yet. Conversations you start in the chat appear here.</Empty>
        ) : null}
        {sessions.data?.data.length ? (
          <Sessions aria-label="Recent sessions" data-testid="analytics-sessions">
            {sessions.data.data.map((session) => (
              <li key={session.id}>
                <span>
                  <strong>{session.title}</strong> <Muted as="span">{`with ${personaName(session.personaId)}`}</Muted>
                </span>
                <Muted as="span">
                  {`${formatCount(session.messageCount)} messages · started ${formatTime(session.createdAt)}`}
                </Muted>
              </li>
            ))}
          </Sessions>
        ) : null}
      </Card>
    </Stack>
  );
}

/** Analytics: the signed-in person's usage; signed out, a line asking to sign in (spec: analytics panel). */
export default function AnalyticsTab() {
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <Loading>Loading…</Loading>;
  if (!isAuthenticated) return <SignInNotice />;
  return <AnalyticsPanel />;
}
