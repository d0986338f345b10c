import { tierLabel, useAuth } from '@kasa/api-client';
import { FeatureCards, HowItWorks, LANDING_STEPS } from '../components/ProductStory';
import { VoiceDemoCard } from '../components/VoiceDemoCard';
import { PlansTeaser } from '../pricing/PlansTeaser';
import { Actions, ActionsPlaceholder, ButtonLink, Eyebrow, Hero, Lead, Page, Section, StatusLine, Title } from '../ui';

/** Route `/`: the landing hero, with calls to action for signed-in and signed-out visitors. */
export default function LandingPage() {
  const { user, isAuthenticated, isLoading } = useAuth();

  return (
    <Page>
      <Hero aria-labelledby="landing-title">
        <Eyebrow>Voice-first · Multilingual · Geo-aware</Eyebrow>
        <Title id="landing-title">Your Voice. Your AI. Your World.</Title>
        <Lead>Kasa is an AI assistant you can talk to in your own language, with answers that know where you are.</Lead>
        {isLoading ? (
          <ActionsPlaceholder aria-hidden="true" />
        ) : (
          <>
            {isAuthenticated ? (
              <>
                <Actions>
                  <ButtonLink to="/chat" variant="primary">
                    Continue Chatting
                  </ButtonLink>
                </Actions>
                <StatusLine>{`${tierLabel(user?.subscriptionTier)} Plan • Ready to chat`}</StatusLine>
              </>
            ) : (
              <Actions>
                <ButtonLink to="/welcome" variant="primary">
                  Get Started Free
                </ButtonLink>
                <ButtonLink to="/pricing">View Pricing</ButtonLink>
              </Actions>
            )}
            <Actions>
              <ButtonLink to={isAuthenticated ? '/developer' : '/welcome'} variant="ghost">
                {isAuthenticated ? 'Developer Portal' : 'Developer Portal - Sign In'}
              </ButtonLink>
              <ButtonLink to={isAuthenticated ? '/chat' : '/welcome'} variant="ghost">
                Try Demo
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
        <h2 id="closing-title">Ready to hear Kasa answer in your language?</h2>
        <p>Start free in the browser, or build Kasa into your own product.</p>
        <Actions>
          <ButtonLink to="/welcome" variant="primary">
            Try Chat Interface
          </ButtonLink>
          <ButtonLink to="/welcome">Try Developer Portal</ButtonLink>
        </Actions>
      </Section>
    </Page>
  );
}
