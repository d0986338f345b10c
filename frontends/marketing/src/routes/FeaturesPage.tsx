import styled from '@emotion/styled';
import type { PlanFeature } from '@kasa/contracts/src/plans';
import { serverGaps } from '@kasa/ui/serverOffers';
import { useServerState } from '../api/serverOffers';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT, type PagesMessageId } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import { ServerGapList } from '../pricing/ServerGapList';
import { Actions, ButtonLink, Card, Grid, Hero, Lead, Page, Section, Title } from '../ui';

const FeatureGaps = styled(ServerGapList)`
  margin-top: 0.75rem;
`;

interface Item {
  title: PagesMessageId;
  text: PagesMessageId;
  /** The plan feature it describes, whose missing parts on this server the card says. */
  feature?: PlanFeature;
}

const features: readonly Item[] = [
  { title: 'features.voice.title', text: 'features.voice.text', feature: 'voice' },
  { title: 'features.languages.title', text: 'features.languages.text', feature: 'languages' },
  { title: 'features.personas.title', text: 'features.personas.text' },
  { title: 'features.geo.title', text: 'features.geo.text', feature: 'geo' },
  { title: 'features.video.title', text: 'features.video.text', feature: 'video' },
  { title: 'features.fallback.title', text: 'features.fallback.text' },
];

/** The personas by name (names stay as they are in every language) and what each is for. */
const personas: ReadonlyArray<{ name: string; role: PagesMessageId }> = [
  { name: 'Kasa', role: 'features.persona.kasa' },
  { name: 'Merla', role: 'features.persona.merla' },
  { name: 'Ticha', role: 'features.persona.ticha' },
  { name: 'Massa', role: 'features.persona.massa' },
  { name: 'Nana', role: 'features.persona.nana' },
  { name: 'Dokta', role: 'features.persona.dokta' },
];

const developer: readonly Item[] = [
  { title: 'features.api.title', text: 'features.api.text' },
  { title: 'features.openai.title', text: 'features.openai.text' },
  { title: 'features.sdks.title', text: 'features.sdks.text' },
];

/**
 * Route `/features`: what Kasa does (with what of it this server cannot deliver now, as the pricing page says), its
 * personas and what developers get.
 */
function FeaturesPage() {
  const t = usePagesT();
  const server = useServerState();
  return (
    <Page>
      <Hero aria-labelledby="features-title">
        <Title id="features-title">{t('features.title')}</Title>
        <Lead>{t('features.lead')}</Lead>
      </Hero>
      <section aria-label={t('features.what')}>
        <Grid>
          {features.map((feature) => (
            <Card key={feature.title}>
              <h2>{t(feature.title)}</h2>
              <p>{t(feature.text)}</p>
              {feature.feature ? (
                <FeatureGaps gaps={serverGaps([feature.feature], server)} testId={`feature-${feature.feature}-gaps`} />
              ) : null}
            </Card>
          ))}
        </Grid>
      </section>
      <Section aria-labelledby="personas-title">
        <h2 id="personas-title">{t('features.personas.heading')}</h2>
        <p>{t('features.personas.intro')}</p>
        <Grid>
          {personas.map((persona) => (
            <Card key={persona.name}>
              <h2>{persona.name}</h2>
              <p>{t(persona.role)}</p>
            </Card>
          ))}
        </Grid>
      </Section>
      <Section aria-labelledby="developers-title">
        <h2 id="developers-title">{t('features.developers.title')}</h2>
        <p>{t('features.developers.text')}</p>
        <Grid>
          {developer.map((item) => (
            <Card key={item.title}>
              <h2>{t(item.title)}</h2>
              <p>{t(item.text)}</p>
            </Card>
          ))}
        </Grid>
      </Section>
      <Section aria-label={t('features.getStarted')}>
        <Actions>
          <ButtonLink to="/welcome" variant="primary">
            {t('common.getStartedFree')}
          </ButtonLink>
          <ButtonLink to="/pricing">{t('common.viewPricing')}</ButtonLink>
          <ButtonLink to="/developer" variant="ghost">
            {t('common.developerPortal')}
          </ButtonLink>
        </Actions>
      </Section>
    </Page>
  );
}

export default withCatalogue(FeaturesPage, PAGES_LOADERS);
