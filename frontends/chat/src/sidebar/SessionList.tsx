import styled from '@emotion/styled';
import type { Session } from '@kasa/contracts';
import { useSessionList } from '../api/chatQueries';
import { describeFailure } from '../conversation/useConversation';
import { Button, InlineError, Muted } from '../ui/controls';
import { SessionItem } from './SessionItem';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.125rem;
`;

/** My conversations, newest first, 20 at a time with 'Load more'. */
export function SessionList({
  activeSessionId,
  onDeleted,
}: {
  activeSessionId: string | undefined;
  onDeleted: (session: Session) => void;
}) {
  const sessions = useSessionList();
  const all = sessions.data?.pages.flatMap((page) => page.sessions) ?? [];

  return (
    <section aria-labelledby="chat-sessions-heading" data-tour="chat-sessions">
      <h2 id="chat-sessions-heading">Conversations</h2>
      {sessions.isPending ? <Muted role="status">Loading conversations…</Muted> : null}
      {sessions.isError ? (
        <InlineError role="alert">
          <p>Could not load your conversations: {describeFailure(sessions.error)}</p>
          <Button type="button" compact onClick={() => void sessions.refetch()}>
            Retry
          </Button>
        </InlineError>
      ) : null}
      {sessions.isSuccess && all.length === 0 ? (
        <Muted data-testid="no-sessions">No conversations yet. Pick a persona and say hello.</Muted>
      ) : null}
      <List aria-label="Your conversations">
        {all.map((session) => (
          <SessionItem
            key={session.id}
            session={session}
            active={session.id === activeSessionId}
            onDeleted={onDeleted}
          />
        ))}
      </List>
      {sessions.hasNextPage ? (
        <Button
          type="button"
          variant="ghost"
          compact
          disabled={sessions.isFetchingNextPage}
          onClick={() => void sessions.fetchNextPage()}
        >
          {sessions.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </section>
  );
}
