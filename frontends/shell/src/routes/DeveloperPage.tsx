import { useRedirectWhenSignedOut } from '../auth/useRedirectWhenSignedOut';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { RemotePage } from '../remotes/RemotePage';
import { ButtonLink } from '../ui/controls';
import { PageSkeleton } from '../ui/Skeleton';

/**
 * Route `/developer`. The shell owns the auth states (a skeleton while loading; signed-out visitors go to /auth,
 * with the 'Authentication Required' card for the moment before); a signed-in user gets the developer remote.
 */
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
  return <RemotePage id="developer/DeveloperApp" label="the developer portal" />;
}
