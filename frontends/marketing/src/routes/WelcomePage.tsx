import { FeatureCards, HowItWorks, WELCOME_STEPS } from '../components/ProductStory';
import { PlansTeaser } from '../pricing/PlansTeaser';
import { Actions, ButtonLink, Hero, Lead, Page, Title } from '../ui';

/** Route `/welcome`: the hero with calls to action to /auth, /pricing and /chat, the feature cards, four steps and the plans. */
export default function WelcomePage() {
  return (
    <Page>
      <Hero aria-labelledby="welcome-title">
        <Title id="welcome-title">Welcome to Kasa</Title>
        <Lead>
          Sign in or create a free account to chat with six AI personas by voice or text, in more than 120 languages.
        </Lead>
        <Actions>
          <ButtonLink to="/auth" variant="primary">
            Get Started
          </ButtonLink>
          <ButtonLink to="/pricing">View Pricing</ButtonLink>
          <ButtonLink to="/chat" variant="ghost">
            Try Chat
          </ButtonLink>
        </Actions>
      </Hero>
      <FeatureCards />
      <HowItWorks steps={WELCOME_STEPS} />
      <PlansTeaser />
    </Page>
  );
}
