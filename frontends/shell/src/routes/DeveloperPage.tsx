import { useRedirectWhenSignedOut } from '../auth/useRedirectWhenSignedOut';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { RemotePage } from '../remotes/RemotePage';
import { toast } from '../toast/toastStore';
import { ButtonLink, PageSkeleton } from '@kasa/ui';
import { useT } from '../i18n/useT';

/**
 * Route `/developer`. The shell owns the auth states (a skeleton while loading; signed-out visitors go to /auth,
 * with the 'Authentication Required' card for the moment before); a signed-in user gets the developer remote.
 */
export default function DeveloperPage() {
  const t = useT();
  useDocumentTitle(t('developer.title'));
  const { user, isLoading, isAuthenticated } = useRedirectWhenSignedOut();

  if (isLoading) return <PageSkeleton label={t('developer.loading')} />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired
        message={t('developer.signInNeeded')}
        action={<ButtonLink to="/auth">{t('nav.signIn')}</ButtonLink>}
      />
    );
  }
  return <RemotePage id="developer/DeveloperApp" name="the developer portal" props={{ notify: toast }} />;
}
