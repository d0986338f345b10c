import { AFRICAN_LANGUAGE_NAMES } from '@kasa/contracts/src/africanLanguages';
import { Actions, ButtonLink, Card, Grid, Hero, Lead, Page, Section, Title } from '../ui';

const features = [
  {
    title: 'Voice-first',
    text: 'Speak and hear the answer, in real time. Type whenever speaking is not an option.',
  },
  {
    title: '120+ languages',
    text: `Including six African languages: ${AFRICAN_LANGUAGE_NAMES}. Kasa detects yours as you talk.`,
  },
  {
    title: 'Six AI personas',
    text: 'A general assistant and five specialists, each with its own expertise and manner.',
  },
  {
    title: 'Geo-aware',
    text: 'Answers that take your region into account: places, customs, currencies and local services.',
  },
  {
    title: 'Video generation',
    text: 'Turn a prompt into a short video, queued and delivered when it is ready.',
  },
  {
    title: 'Always answering',
    text: 'Replies stream as they are written, with automatic fallback across 18+ AI providers.',
  },
];

const personas = [
  { name: 'Kasa', role: 'General assistant: everyday questions, writing and ideas.' },
  { name: 'Merla', role: 'Finance expert: budgets, savings and money questions.' },
  { name: 'Ticha', role: 'Education specialist: explanations, practice and study plans.' },
  { name: 'Massa', role: 'Technical support: devices, apps and troubleshooting.' },
  { name: 'Nana', role: 'Local guide: culture, travel and places near you.' },
  { name: 'Dokta', role: 'Health and wellbeing information, with care about its limits.' },
];

const developer = [
  { title: 'Public API', text: 'Chat, voice, translation and analytics over HTTP, with an OpenAPI document.' },
  { title: 'OpenAI-compatible', text: 'Point existing OpenAI client libraries at Kasa and they work as they are.' },
  { title: 'SDKs', text: 'JavaScript, Python, React, Node.js, Go and Rust, with quick starts and examples.' },
];

/** Route `/features`: what Kasa does, its personas and what developers get. */
export default function FeaturesPage() {
  return (
    <Page>
      <Hero aria-labelledby="features-title">
        <Title id="features-title">Features</Title>
        <Lead>An AI assistant you can talk to in your own language, with answers that know where you are.</Lead>
      </Hero>
      <section aria-label="What Kasa does">
        <Grid>
          {features.map((feature) => (
            <Card key={feature.title}>
              <h2>{feature.title}</h2>
              <p>{feature.text}</p>
            </Card>
          ))}
        </Grid>
      </section>
      <Section aria-labelledby="personas-title">
        <h2 id="personas-title">Meet the Personas</h2>
        <p>Pick the expert that fits your question, or let Kasa answer.</p>
        <Grid>
          {personas.map((persona) => (
            <Card key={persona.name}>
              <h2>{persona.name}</h2>
              <p>{persona.role}</p>
            </Card>
          ))}
        </Grid>
      </Section>
      <Section aria-labelledby="developers-title">
        <h2 id="developers-title">For Developers</h2>
        <p>Build Kasa into your own product.</p>
        <Grid>
          {developer.map((item) => (
            <Card key={item.title}>
              <h2>{item.title}</h2>
              <p>{item.text}</p>
            </Card>
          ))}
        </Grid>
      </Section>
      <Section aria-label="Get started">
        <Actions>
          <ButtonLink to="/welcome" variant="primary">
            Get Started Free
          </ButtonLink>
          <ButtonLink to="/pricing">View Pricing</ButtonLink>
          <ButtonLink to="/developer" variant="ghost">
            Developer Portal
          </ButtonLink>
        </Actions>
      </Section>
    </Page>
  );
}
