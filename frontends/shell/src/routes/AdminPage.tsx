import { useAuth } from '@kasa/api-client';
import { PageSkeleton } from '@kasa/ui';
import { useIsOperator } from '../auth/useOperator';
import { PagesCatalogue } from '../i18n/PagesCatalogue';
import { useT } from '../i18n/useT';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { RemotePage } from '../remotes/RemotePage';
import NotFoundPage from './NotFoundPage';

/** The console itself, for an operator. */
function Console() {
  const t = useT();
  useDocumentTitle(t('admin.title'));
  return <RemotePage id="admin/AdminApp" name="the operator console" />;
}

/**
 * Routes `/admin/*`: the operator console, for operators only (GET /api/auth/me says who is one). Anyone else (signed
 * out, or signed in without the role) gets the not-found page of any unknown address, and the console's code is never
 * downloaded for them; the API's /api/admin routes are a 404 to them in any case. While `me` answers, a neutral
 * skeleton.
 */
export default function AdminPage() {
  const t = useT();
  const { isLoading, isAuthenticated } = useAuth();
  const operator = useIsOperator();

  if (isLoading || (isAuthenticated && operator.isPending)) return <PageSkeleton label={t('layout.loading')} />;
  if (!isAuthenticated || !operator.data)
    return (
      <PagesCatalogue>
        <NotFoundPage />
      </PagesCatalogue>
    );
  return <Console />;
}
