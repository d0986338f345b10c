import styled from '@emotion/styled';
import { lazy, Suspense, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Session } from '@kasa/contracts';
import { useMessages } from '@kasa/i18n';
import { useSessionList } from '../api/chatQueries';
import { pendingSessionIds, sweepPendingSessions } from '../api/pendingSessions';
import { describeFailure } from '../conversation/useConversation';
import { Button, InlineError, SkeletonBar, VisuallyHidden } from '@kasa/ui';
import { useT } from '../i18n/useT';

const Placeholder = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 0.375rem 0.5rem;
`;

const Empty = styled.div`
  padding: 0.5rem;
  border: 1px dashed var(--kasa-border);
  border-radius: var(--kasa-radius);
  p {
    margin: 0;
    font-size: 0.875rem;
  }
`;

/** The grouped list loads once there is something to list: a first visit shows only the empty state. */
const SessionGroups = lazy(() => import('./SessionGroups').then((module) => ({ default: module.SessionGroups })));

/** Rows of grey bars in the shape of the list, while it loads. */
function ListSkeleton({ label }: { label: string }) {
  return (
    <Placeholder data-testid="sessions-skeleton">
      <VisuallyHidden>{label}</VisuallyHidden>
      {['70%', '85%', '55%', '75%'].map((width) => (
        <SkeletonBar key={width} width={width} aria-hidden="true" />
      ))}
    </Placeholder>
  );
}

/** My conversations, newest first and grouped by date, 20 at a time with 'Load more'. */
export function SessionList({
  activeSessionId,
  onDeleted,
}: {
  activeSessionId: string | undefined;
  onDeleted: (session: Session) => void;
}) {
  const t = useT();
  const { locale } = useMessages();
  const queryClient = useQueryClient();
  const sessions = useSessionList();

  // A new chat whose first message never arrived (a reload right after sending it) leaves an empty session:
  // deleted here, on the next visit.
  useEffect(() => {
    void sweepPendingSessions(queryClient);
  }, [queryClient]);

  const pending = pendingSessionIds();
  const all = (sessions.data?.pages.flatMap((page) => page.sessions) ?? []).filter((s) => !pending.has(s.id));

  return (
    <section aria-labelledby="chat-sessions-heading" aria-busy={sessions.isPending} data-tour="chat-sessions">
      <h2 id="chat-sessions-heading">{t('sessions.title')}</h2>
      {sessions.isPending ? <ListSkeleton label={t('sessions.loading')} /> : null}
      {sessions.isError ? (
        <InlineError role="alert">
          <p>{t('sessions.loadFailed', { reason: describeFailure(sessions.error) })}</p>
          <Button type="button" compact onClick={() => void sessions.refetch()}>
            {t('common.retry')}
          </Button>
        </InlineError>
      ) : null}
      {sessions.isSuccess && all.length === 0 ? (
        <Empty data-testid="no-sessions">
          <p>{t('sessions.none')}</p>
        </Empty>
      ) : null}
      {all.length > 0 ? (
        <Suspense fallback={<ListSkeleton label={t('sessions.loading')} />}>
          <SessionGroups sessions={all} locale={locale} activeSessionId={activeSessionId} onDeleted={onDeleted} />
        </Suspense>
      ) : null}
      {sessions.hasNextPage ? (
        <Button
          type="button"
          variant="ghost"
          compact
          disabled={sessions.isFetchingNextPage}
          onClick={() => void sessions.fetchNextPage()}
        >
          {sessions.isFetchingNextPage ? t('common.loading') : t('sessions.loadMore')}
        </Button>
      ) : null}
    </section>
  );
}
