import { useT, type MessageId } from '../i18n/useT';
import { Card, Grid, Section } from '../ui';

export interface Step {
  title: MessageId;
  text: MessageId;
}

/** The six feature cards (spec section 2), shown on the landing and welcome pages. */
const FEATURES: readonly Step[] = [
  { title: 'story.voice.title', text: 'story.voice.text' },
  { title: 'story.languages.title', text: 'story.languages.text' },
  { title: 'story.personas.title', text: 'story.personas.text' },
  { title: 'story.geo.title', text: 'story.geo.text' },
  { title: 'story.providers.title', text: 'story.providers.text' },
  { title: 'story.developers.title', text: 'story.developers.text' },
];

/** The landing page's three steps of 'How Kasa Works'. */
export const LANDING_STEPS: readonly Step[] = [
  { title: 'story.step.persona.title', text: 'story.step.persona.text' },
  { title: 'story.step.speak.title', text: 'story.step.speak.text' },
  { title: 'story.step.hear.title', text: 'story.step.hear.text' },
];

/** The welcome page's four steps, from account to answer. */
export const WELCOME_STEPS: readonly Step[] = [
  { title: 'story.step.account.title', text: 'story.step.account.text' },
  { title: 'story.step.expert.title', text: 'story.step.expert.text' },
  { title: 'story.step.speak.title', text: 'story.step.speak.text' },
  { title: 'story.step.build.title', text: 'story.step.build.text' },
];

export function FeatureCards() {
  const t = useT();
  return (
    <Section aria-labelledby="features-title">
      <h2 id="features-title">{t('story.features.title')}</h2>
      <Grid>
        {FEATURES.map((item) => (
          <Card key={item.title}>
            <h3>{t(item.title)}</h3>
            <p>{t(item.text)}</p>
          </Card>
        ))}
      </Grid>
    </Section>
  );
}

export function HowItWorks({ steps }: { steps: readonly Step[] }) {
  const t = useT();
  return (
    <Section aria-labelledby="how-title">
      <h2 id="how-title">{t('story.how.title')}</h2>
      <Grid as="ol">
        {steps.map((step, index) => (
          <Card key={step.title}>
            <h3>{t('story.step', { number: index + 1, title: t(step.title) })}</h3>
            <p>{t(step.text)}</p>
          </Card>
        ))}
      </Grid>
    </Section>
  );
}
