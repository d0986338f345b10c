import styled from '@emotion/styled';
import type { Session } from '@kasa/contracts';
import { SessionItem } from './SessionItem';
import { groupByDate, monthHeading, type GroupKind } from './dateGroups';
import { useT, type MessageId } from '../i18n/useT';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 0.125rem;
  }
  h3 {
    margin: 0 0 0.25rem;
    padding: 0 0.5rem;
    font-size: 0.75rem;
    font-weight: 600;
    color: var(--kasa-muted);
  }
`;

const GROUP_TITLES: Record<Exclude<GroupKind, 'older'>, MessageId> = {
  today: 'sessions.today',
  yesterday: 'sessions.yesterday',
  week: 'sessions.previous7',
  month: 'sessions.previous30',
};

/**
 * My conversations grouped by date (Today, Yesterday, Previous 7 days, Previous 30 days, then by month), each
 * group a list under its heading. Grouped against the clock at each render, so a list left open past midnight
 * regroups.
 */
export function SessionGroups({
  sessions,
  locale,
  activeSessionId,
  onDeleted,
}: {
  sessions: Session[];
  /** The interface language, for the months and dates. */
  locale: string;
  activeSessionId: string | undefined;
  onDeleted: (session: Session) => void;
}) {
  const t = useT();
  return (
    <List aria-label={t('sessions.list')}>
      {groupByDate(sessions, (s) => s.createdAt).map((group) => (
        <li key={group.key} data-testid="session-group">
          <h3 id={`session-group-${group.key}`}>
            {group.month
              ? monthHeading(group.month, locale)
              : t(GROUP_TITLES[group.kind as Exclude<GroupKind, 'older'>])}
          </h3>
          <ul aria-labelledby={`session-group-${group.key}`}>
            {group.items.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                group={group.kind}
                locale={locale}
                active={session.id === activeSessionId}
                onDeleted={onDeleted}
              />
            ))}
          </ul>
        </li>
      ))}
    </List>
  );
}
