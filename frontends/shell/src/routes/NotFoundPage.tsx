import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ButtonLink, Card, Muted, PageContainer } from '../ui/controls';

/** Any route nobody claims. */
export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <PageContainer narrow>
      <Card aria-labelledby="not-found-title">
        <h1 id="not-found-title">404 Page Not Found</h1>
        <Muted>The page you are looking for does not exist or has moved.</Muted>
        <ButtonLink to="/">Back to Home</ButtonLink>
      </Card>
    </PageContainer>
  );
}
