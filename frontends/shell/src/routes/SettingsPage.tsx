import { useRedirectWhenSignedOut } from '../auth/useRedirectWhenSignedOut';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ButtonLink, Card, Muted, PageContainer } from '../ui/controls';
import { PageSkeleton } from '../ui/Skeleton';

/** Route `/settings`. A placeholder for global settings; signed-out visitors go to /auth. */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  const { user, isLoading, isAuthenticated } = useRedirectWhenSignedOut();

  if (isLoading) return <PageSkeleton label="Loading settings…" />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired
        message="Please sign in to access global settings."
        action={<ButtonLink to="/auth">Sign In</ButtonLink>}
      />
    );
  }
  return (
    <PageContainer>
      <Card aria-labelledby="settings-title">
        <h1 id="settings-title">Settings</h1>
        <p>Signed in as {user.username}</p>
        <Muted>
          Global settings are not available yet. The light/dark switch in the navigation bar already works and is
          remembered on this device.
        </Muted>
      </Card>
    </PageContainer>
  );
}
