import styled from '@emotion/styled';
import { useAuth } from '@kasa/api-client';
import { Button, Card, Muted, PageSkeleton } from '@kasa/ui';
import { useIsOperator } from '../auth/useOperator';
import { PagesCatalogue } from '../i18n/PagesCatalogue';
import { useT } from '../i18n/useT';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { RemotePage } from '../remotes/RemotePage';
import NotFoundPage from './NotFoundPage';

const ErrorCard = styled(Card)`
  max-width: 36rem;
  margin: 3rem auto;
`;

/** The console itself, for an operator. */
function Console() {
  const t = useT();
  useDocumentTitle(t('admin.title'));
  return <RemotePage id="admin/AdminApp" name="the operator console" />;
}

/**
 * Routes `/admin/*`: the operator console, for operators only. Anyone else (signed out, or signed in without the
 * role) gets the not-found page of any unknown address, and the console's code is never downloaded for them; the
 * API's /api/admin routes are a 404 to them in any case. While the shell asks, a neutral skeleton.
 */
export default function AdminPage() {
  const t = useT();
  const { isLoading, isAuthenticated } = useAuth();
  const operator = useIsOperator();

  if (isLoading || (isAuthenticated && operator.isPending)) return <PageSkeleton label={t('layout.loading')} />;
  if (isAuthenticated && operator.isError)
    return (
      <ErrorCard role="alert" aria-labelledby="admin-check-title" data-testid="remote-error">
        <h2 id="admin-check-title">{t('remote.failed')}</h2>
        <Muted>{t('remote.failedText')}</Muted>
        <Button type="button" onClick={() => void operator.refetch()}>
          {t('remote.retry')}
        </Button>
      </ErrorCard>
    );
  if (!isAuthenticated || !operator.data)
    return (
      <PagesCatalogue>
        <NotFoundPage />
      </PagesCatalogue>
    );
  return <Console />;
}
