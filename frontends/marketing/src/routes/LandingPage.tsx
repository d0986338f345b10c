import { tierLabel, useAuth } from '@kasa/api-client';
import { FeatureCards, HowItWorks, LANDING_STEPS } from '../components/ProductStory';
import { VoiceDemoCard } from '../components/VoiceDemoCard';
import { useT } from '../i18n/useT';
import { withCatalogue } from '../i18n/withCatalogue';
import { PlansTeaser } from '../pricing/PlansTeaser';
import { Actions, ActionsPlaceholder, ButtonLink, Eyebrow, Hero, Lead, Page, Section, StatusLine, Title } from '../ui';

/** Route `/`: the landing hero, with calls to action for signed-in and signed-out visitors. */
function LandingPage() {
  const t = useT();
  const { user, isAuthenticated, isLoading } = useAuth();

  return (
    <Page>
      <Hero aria-labelledby="landing-title">
        <Eyebrow>{t('landing.eyebrow')}</Eyebrow>
        <Title id="landing-title">{t('landing.title')}</Title>
        <Lead>{t('landing.lead')}</Lead>
        {isLoading ? (
          <ActionsPlaceholder aria-hidden="true" />
        ) : (
          <>
            {isAuthenticated ? (
              <>
                <Actions>
                  <ButtonLink to="/chat" variant="primary">
                    {t('landing.continueChatting')}
                  </ButtonLink>
                </Actions>
                <StatusLine>{t('landing.planStatus', { tier: tierLabel(user?.subscriptionTier) })}</StatusLine>
              </>
            ) : (
              <Actions>
                <ButtonLink to="/welcome" variant="primary">
                  {t('common.getStartedFree')}
                </ButtonLink>
                <ButtonLink to="/pricing">{t('common.viewPricing')}</ButtonLink>
              </Actions>
            )}
            <Actions>
              <ButtonLink to={isAuthenticated ? '/developer' : '/welcome'} variant="ghost">
                {isAuthenticated ? t('common.developerPortal') : t('landing.developerSignIn')}
              </ButtonLink>
              <ButtonLink to={isAuthenticated ? '/chat' : '/welcome'} variant="ghost">
                {t('landing.tryDemo')}
              </ButtonLink>
            </Actions>
          </>
        )}
      </Hero>
      <VoiceDemoCard />
      <FeatureCards />
      <HowItWorks steps={LANDING_STEPS} />
      <PlansTeaser />
      <Section aria-labelledby="closing-title">
        <h2 id="closing-title">{t('landing.closing.title')}</h2>
        <p>{t('landing.closing.text')}</p>
        <Actions>
          <ButtonLink to="/welcome" variant="primary">
            {t('landing.closing.chat')}
          </ButtonLink>
          <ButtonLink to="/welcome">{t('landing.closing.developer')}</ButtonLink>
        </Actions>
      </Section>
    </Page>
  );
}

export default withCatalogue(LandingPage);
