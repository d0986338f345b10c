import styled from '@emotion/styled';
import { tierLabel, useAuth } from '@kasa/api-client';
import { useT } from '../i18n/useT';

const Card = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
  padding-top: 0.75rem;
  border-top: 1px solid var(--kasa-border);
  strong {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
`;

const Badge = styled.span`
  flex: none;
  padding: 0.125rem 0.5rem;
  border: 1px solid var(--kasa-primary);
  border-radius: 999px;
  color: var(--kasa-fg);
  font-size: 0.75rem;
  font-weight: 600;
`;

/** The signed-in person and their plan. */
export function UserCard() {
  const t = useT();
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Card data-testid="chat-user">
      <strong dir="auto" title={user.email}>
        {user.username}
      </strong>
      <Badge>{t('user.plan', { plan: tierLabel(user.subscriptionTier) })}</Badge>
    </Card>
  );
}
