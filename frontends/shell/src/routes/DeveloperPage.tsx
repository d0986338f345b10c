import { useRedirectWhenSignedOut } from '../auth/useRedirectWhenSignedOut';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ButtonLink, Card, Muted, PageContainer } from '../ui/controls';
import { PageSkeleton } from '../ui/Skeleton';

/** Route `/developer`. A placeholder until the developer remote exists; signed-out visitors go to /auth. */
export default function DeveloperPage() {
  useDocumentTitle('Developer Portal');
  const { user, isLoading, isAuthenticated } = useRedirectWhenSignedOut();

  if (isLoading) return <PageSkeleton label="Loading the developer portal…" />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired
        message="Please sign in to access the developer portal."
        action={<ButtonLink to="/auth">Sign In</ButtonLink>}
      />
    );
  }
  return (
    <PageContainer>
      <Card aria-labelledby="developer-title">
        <h1 id="developer-title">Developer Portal</h1>
        <p>Signed in as {user.username}</p>
        <Muted>
          API keys, documentation, the API tester and usage analytics arrive with the developer portal. Nothing here
          works yet.
        </Muted>
      </Card>
    </PageContainer>
  );
}
