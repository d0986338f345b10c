import { tierLabel, useAuth } from '@kasa/api-client';
import { VoiceDemoCard } from '../components/VoiceDemoCard';
import { PlansTeaser } from '../pricing/PlansTeaser';
import {
  Actions,
  ActionsPlaceholder,
  ButtonLink,
  Card,
  Eyebrow,
  Grid,
  Hero,
  Lead,
  Page,
  Section,
  StatusLine,
  Title,
} from '../ui';

/** The six feature cards of the landing page (spec section 2). */
const features = [
  { title: 'Voice first', text: 'Ask out loud and hear the answer, or type when speaking is not an option.' },
  { title: '120+ languages', text: 'Including Twi, Hausa, Ga, Ewe, Yoruba and Swahili, detected as you talk.' },
  {
    title: 'Six personas',
    text: 'A general assistant plus experts for money, learning, tech support, places and wellbeing.',
  },
  { title: 'Knows where you are', text: 'Local time, currency and places shape the answers of Nana and Merla.' },
  { title: '18+ AI providers', text: 'Replies keep coming when a provider fails: Kasa switches mid-answer.' },
  { title: 'Built for developers', text: 'A public API that speaks OpenAI’s format, API keys, SDKs and a portal.' },
];

/** The three steps of 'How Kasa Works'. */
const steps = [
  { title: 'Pick a persona', text: 'Choose the expert you need, from everyday questions to money and health.' },
  { title: 'Speak or type', text: 'In the language you think in. Kasa detects it and answers in it.' },
  { title: 'Hear the answer', text: 'Replies stream in as they are written, and can be read aloud.' },
];

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
      <Section aria-labelledby="features-title">
        <h2 id="features-title">Everything you need to talk with AI</h2>
        <Grid>
          {features.map((item) => (
            <Card key={item.title}>
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </Card>
          ))}
        </Grid>
      </Section>
      <Section aria-labelledby="how-title">
        <h2 id="how-title">How Kasa Works</h2>
        <Grid as="ol">
          {steps.map((step, index) => (
            <Card key={step.title}>
              <h3>
                {index + 1}. {step.title}
              </h3>
              <p>{step.text}</p>
            </Card>
          ))}
        </Grid>
      </Section>
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
