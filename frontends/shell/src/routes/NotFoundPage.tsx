import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ButtonLink, Card, Muted, PageContainer } from '@kasa/ui';
import { useT } from '../i18n/useT';

/** Any route nobody claims. */
export default function NotFoundPage() {
  const t = useT();
  useDocumentTitle(t('notFound.title'));
  return (
    <PageContainer narrow>
      <Card aria-labelledby="not-found-title">
        <h1 id="not-found-title">{t('notFound.heading')}</h1>
        <Muted>{t('notFound.text')}</Muted>
        <ButtonLink to="/">{t('common.backHome')}</ButtonLink>
      </Card>
    </PageContainer>
  );
}
