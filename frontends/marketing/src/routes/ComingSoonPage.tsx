import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import { Actions, ButtonLink, Hero, Lead, Page, Title } from '../ui';

export interface ComingSoonPageProps {
  /** The page's name, shown as its heading (e.g. 'Blog'), in the interface language: the shell translates it. */
  title: string;
}

/** Placeholder for public pages whose content is not written yet. */
function ComingSoonPage({ title }: ComingSoonPageProps) {
  const t = usePagesT();
  return (
    <Page>
      <Hero aria-labelledby="coming-soon-title">
        <Title id="coming-soon-title">{title}</Title>
        <Lead>{t('comingSoon.text')}</Lead>
        <Actions>
          <ButtonLink to="/" variant="primary">
            {t('common.backHome')}
          </ButtonLink>
        </Actions>
      </Hero>
    </Page>
  );
}

export default withCatalogue(ComingSoonPage, PAGES_LOADERS);
