import styled from '@emotion/styled';
import { useAuth } from '@kasa/api-client';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { RemotePage } from '../remotes/RemotePage';
import { ButtonLink, PageContainer, SkeletonBar as SkeletonBlock, VisuallyHidden } from '@kasa/ui';
import { useT } from '../i18n/useT';

const Workspace = styled.div`
  display: grid;
  grid-template-columns: minmax(12rem, 16rem) 1fr;
  gap: 1.25rem;
  @media (max-width: 48rem) {
    grid-template-columns: 1fr;
  }
`;

const Sidebar = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
`;

/** The chat's shape while the auth state or the chat remote loads. */
function ChatSkeleton({ label }: { label: string }) {
  return (
    <PageContainer>
      <Workspace role="status" aria-busy="true">
        <VisuallyHidden>{label}</VisuallyHidden>
        <Sidebar>
          <SkeletonBlock height="1.75rem" width="70%" />
          <SkeletonBlock />
          <SkeletonBlock width="85%" />
          <SkeletonBlock width="60%" />
        </Sidebar>
        <div>
          <SkeletonBlock height="2.5rem" width="40%" />
          <div style={{ height: '1rem' }} />
          <SkeletonBlock height="16rem" />
        </div>
      </Workspace>
    </PageContainer>
  );
}

/**
 * Route `/chat/*` (the chat remote keeps its own routes below it). The shell owns the auth states (a skeleton while loading, the
 * 'Authentication Required' card when signed out); a signed-in user gets the chat remote's workspace.
 */
export default function ChatPage() {
  const t = useT();
  useDocumentTitle(t('nav.chat'));
  const { user, isLoading, isAuthenticated } = useAuth();

  if (isLoading) return <ChatSkeleton label={t('chat.loading')} />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired message={t('chat.signInNeeded')} action={<ButtonLink to="/auth">{t('chat.signIn')}</ButtonLink>} />
    );
  }
  return <RemotePage id="chat/ChatApp" name="the chat" />;
}
