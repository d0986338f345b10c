import styled from '@emotion/styled';
import { useAuth } from '@kasa/api-client';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ButtonLink, Card, Muted, PageContainer, VisuallyHidden } from '../ui/controls';
import { SkeletonBlock } from '../ui/Skeleton';

const Workspace = styled.div`
  display: grid;
  grid-template-columns: minmax(12rem, 16rem) 1fr;
  gap: 1.25rem;
  @media (max-width: 48rem) {
    grid-template-columns: 1fr;
  }
`;

const Sidebar = styled.aside`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
`;

function ChatSkeleton() {
  return (
    <PageContainer>
      <Workspace role="status" aria-busy="true">
        <VisuallyHidden>Loading chat…</VisuallyHidden>
        <Sidebar as="div">
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
 * Route `/chat`. A placeholder until the chat remote exists: it proves the auth wiring (loading, signed out,
 * signed in) and says plainly that the conversation view is not here yet.
 */
export default function ChatPage() {
  useDocumentTitle('Chat');
  const { user, isLoading, isAuthenticated } = useAuth();

  if (isLoading) return <ChatSkeleton />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired
        message="Please sign in to access the chat interface."
        action={<ButtonLink to="/auth">Sign In to Chat</ButtonLink>}
      />
    );
  }

  return (
    <PageContainer>
      <Workspace>
        <Sidebar aria-label="Chat navigation">
          <strong>Kasa Chat</strong>
          <nav aria-label="Chat shortcuts">
            <ButtonLink to="/" variant="ghost" compact>
              Home
            </ButtonLink>
            <ButtonLink to="/developer" variant="ghost" compact>
              Developer Portal
            </ButtonLink>
          </nav>
        </Sidebar>
        <Card aria-labelledby="chat-title">
          <h1 id="chat-title">Kasa Chat</h1>
          <p data-testid="chat-signed-in-as">Signed in as {user.username}</p>
          <Muted>
            The conversation view arrives with the chat service. Until then this page only confirms that you are signed
            in; nothing you type here would be sent anywhere.
          </Muted>
        </Card>
      </Workspace>
    </PageContainer>
  );
}
