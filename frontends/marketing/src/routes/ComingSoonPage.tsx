import { Actions, ButtonLink, Hero, Lead, Page, Title } from '../ui';

export interface ComingSoonPageProps {
  /** The page's name, shown as its heading (e.g. 'Pricing'). */
  title: string;
}

/** Placeholder for public pages whose content is not written yet. */
export default function ComingSoonPage({ title }: ComingSoonPageProps) {
  return (
    <Page>
      <Hero aria-labelledby="coming-soon-title">
        <Title id="coming-soon-title">{title}</Title>
        <Lead>This page is coming soon.</Lead>
        <Actions>
          <ButtonLink to="/" variant="primary">
            Back to Home
          </ButtonLink>
        </Actions>
      </Hero>
    </Page>
  );
}
