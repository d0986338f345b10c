import { richText } from '@kasa/i18n/richText';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import { Actions, ButtonLink, Page, Prose } from '../ui';
import { COMPANY } from './legal/company';

/** Route `/about`: why Kasa exists, what it believes, and who is behind it. */
function AboutPage() {
  const t = usePagesT();
  return (
    <Page>
      <Prose aria-labelledby="about-title">
        <h1 id="about-title">{t('about.title')}</h1>
        <p>{t('about.intro')}</p>
        <h2>{t('about.why.title')}</h2>
        <p>{t('about.why.text')}</p>
        <h2>{t('about.beliefs.title')}</h2>
        <ul>
          <li>{t('about.beliefs.language')}</li>
          <li>{t('about.beliefs.place')}</li>
          <li>{t('about.beliefs.data')}</li>
          <li>{t('about.beliefs.developers')}</li>
        </ul>
        <h2>{t('about.company.title')}</h2>
        <p>
          {t('about.company.operator', {
            legalName: COMPANY.legalName,
            address: COMPANY.address,
            registration: COMPANY.registration,
          })}
        </p>
        <p>
          {richText((values) => t('about.company.write', values), {
            hello: <a href={`mailto:${COMPANY.helloEmail}`}>{COMPANY.helloEmail}</a>,
            support: <a href={`mailto:${COMPANY.supportEmail}`}>{COMPANY.supportEmail}</a>,
          })}
        </p>
        <Actions>
          <ButtonLink to="/" variant="primary">
            {t('common.backHome')}
          </ButtonLink>
          <ButtonLink to="/contact">{t('about.contact')}</ButtonLink>
        </Actions>
      </Prose>
    </Page>
  );
}

export default withCatalogue(AboutPage, PAGES_LOADERS);
