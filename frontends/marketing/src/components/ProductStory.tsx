import { AFRICAN_LANGUAGE_NAMES } from '@kasa/contracts/src/africanLanguages';
import { Card, Grid, Section } from '../ui';

/** The six feature cards (spec section 2), shown on the landing and welcome pages. */
const FEATURES = [
  { title: 'Voice first', text: 'Ask out loud and hear the answer, or type when speaking is not an option.' },
  { title: '120+ languages', text: `Including ${AFRICAN_LANGUAGE_NAMES}, detected as you talk.` },
  {
    title: 'Six personas',
    text: 'A general assistant plus experts for money, learning, tech support, places and wellbeing.',
  },
  { title: 'Knows where you are', text: 'Local time, currency and places shape the answers of Nana and Merla.' },
  { title: '18+ AI providers', text: 'Replies keep coming when a provider fails: Kasa switches mid-answer.' },
  { title: 'Built for developers', text: 'A public API that speaks OpenAI’s format, API keys, SDKs and a portal.' },
];

export interface Step {
  title: string;
  text: string;
}

/** The landing page's three steps of 'How Kasa Works'. */
export const LANDING_STEPS: Step[] = [
  { title: 'Pick a persona', text: 'Choose the expert you need, from everyday questions to money and health.' },
  { title: 'Speak or type', text: 'In the language you think in. Kasa detects it and answers in it.' },
  { title: 'Hear the answer', text: 'Replies stream in as they are written, and can be read aloud.' },
];

/** The welcome page's four steps, from account to answer. */
export const WELCOME_STEPS: Step[] = [
  { title: 'Create a free account', text: 'A username, an email and a password: that is all.' },
  { title: 'Pick a persona', text: 'Kasa for anything, or an expert for money, learning, tech, places or health.' },
  { title: 'Speak or type', text: 'In the language you think in. Kasa detects it and answers in it.' },
  { title: 'Build on it', text: 'Create an API key in the developer portal and call Kasa from your own app.' },
];

export function FeatureCards() {
  return (
    <Section aria-labelledby="features-title">
      <h2 id="features-title">Everything you need to talk with AI</h2>
      <Grid>
        {FEATURES.map((item) => (
          <Card key={item.title}>
            <h3>{item.title}</h3>
            <p>{item.text}</p>
          </Card>
        ))}
      </Grid>
    </Section>
  );
}

export function HowItWorks({ steps }: { steps: Step[] }) {
  return (
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
  );
}
