import { FeatureCards, HowItWorks, WELCOME_STEPS } from '../components/ProductStory';
import { useT } from '../i18n/useT';
import { withCatalogue } from '../i18n/withCatalogue';
import { PlansTeaser } from '../pricing/PlansTeaser';
import { Actions, ButtonLink, Hero, Lead, Page, Title } from '../ui';

/** Route `/welcome`: the hero with calls to action to /auth, /pricing and /chat, the feature cards, four steps and the plans. */
function WelcomePage() {
  const t = useT();
  return (
    <Page>
      <Hero aria-labelledby="welcome-title">
        <Title id="welcome-title">{t('welcome.title')}</Title>
        <Lead>{t('welcome.lead')}</Lead>
        <Actions>
          <ButtonLink to="/auth" variant="primary">
            {t('welcome.getStarted')}
          </ButtonLink>
          <ButtonLink to="/pricing">{t('common.viewPricing')}</ButtonLink>
          <ButtonLink to="/chat" variant="ghost">
            {t('welcome.tryChat')}
          </ButtonLink>
        </Actions>
      </Hero>
      <FeatureCards />
      <HowItWorks steps={WELCOME_STEPS} />
      <PlansTeaser />
    </Page>
  );
}

export default withCatalogue(WelcomePage);
