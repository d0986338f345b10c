import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ButtonLink, Card, Muted, PageContainer } from '../ui/controls';

/** A shell-owned page whose content is not written yet (e.g. theme settings). */
export default function PlaceholderPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <PageContainer narrow>
      <Card aria-labelledby="placeholder-title">
        <h1 id="placeholder-title">{title}</h1>
        <Muted>This page is coming soon.</Muted>
        <ButtonLink to="/">Back to Home</ButtonLink>
      </Card>
    </PageContainer>
  );
}
