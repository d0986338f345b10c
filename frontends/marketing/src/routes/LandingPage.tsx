import { tierLabel, useAuth } from '@kasa/api-client';
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
  StatusLine,
  Title,
} from '../ui';

const highlights = [
  { title: 'Speak or type', text: 'Ask out loud and hear the answer, or type when speaking is not an option.' },
  { title: '120+ languages', text: 'Including Twi, Hausa, Ga, Ewe, Yoruba and Swahili, detected as you talk.' },
  {
    title: 'Six personas',
    text: 'A general assistant plus experts for money, learning, tech support, places and wellbeing.',
  },
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
      <section aria-label="Highlights">
        <Grid>
          {highlights.map((item) => (
            <Card key={item.title}>
              <h2>{item.title}</h2>
              <p>{item.text}</p>
            </Card>
          ))}
        </Grid>
      </section>
      <PlansTeaser />
    </Page>
  );
}
