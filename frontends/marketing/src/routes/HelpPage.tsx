import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import { Button, Card, Grid, Hero, Lead, Page, Section, Title } from '../ui';

/** A guided tour as the shell describes it to this page. */
export interface HelpTour {
  id: string;
  name: string;
  description: string;
}

export interface HelpPageProps {
  /** The shell's guided tours (welcome, chat, developer). */
  tours: readonly HelpTour[];
  /** Starts a tour (the shell goes to the tour's page first when needed). */
  onStartTour: (id: string) => void;
}

const TourCard = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  button {
    align-self: flex-start;
  }
`;

const Links = styled.ul`
  max-width: 40rem;
  margin: 1.5rem auto 0;
  padding-left: 1.25rem;
  li + li {
    margin-top: 0.5rem;
  }
  a {
    color: var(--kasa-fg);
    font-weight: 600;
  }
`;

/** Route `/help`: the guided tours, the developer docs and where else to find answers. */
function HelpPage({ tours, onStartTour }: HelpPageProps) {
  const t = usePagesT();
  return (
    <Page>
      <Hero aria-labelledby="help-title">
        <Title id="help-title">{t('help.title')}</Title>
        <Lead>{t('help.lead')}</Lead>
      </Hero>

      <Section aria-labelledby="tours-title">
        <h2 id="tours-title">{t('help.tours.title')}</h2>
        <p>{t('help.tours.text')}</p>
        <Grid aria-label={t('help.tours.list')}>
          {tours.map((tour) => (
            <TourCard key={tour.id} data-testid={`help-tour-${tour.id}`}>
              <h2>{tour.name}</h2>
              <p>{tour.description}</p>
              <Button type="button" onClick={() => onStartTour(tour.id)}>
                {t('help.tours.start', { tour: tour.name })}
              </Button>
            </TourCard>
          ))}
        </Grid>
      </Section>

      <Section aria-labelledby="docs-title">
        <h2 id="docs-title">{t('help.docs.title')}</h2>
        <p>{t('help.docs.text')}</p>
        <Links>
          <li>
            <Link to="/developer">{t('help.docs.portal')}</Link>
          </li>
          <li>
            <a href="/api/openapi.json">{t('help.docs.openapi')}</a>
          </li>
        </Links>
      </Section>

      <Section aria-labelledby="more-help-title">
        <h2 id="more-help-title">{t('help.more.title')}</h2>
        <Links>
          <li>
            <Link to="/pricing">{t('help.more.pricing')}</Link>
          </li>
          <li>
            <Link to="/status">{t('help.more.status')}</Link>
          </li>
          <li>
            <Link to="/contact">{t('help.more.contact')}</Link>
          </li>
        </Links>
        <p>{t('help.more.text')}</p>
      </Section>
    </Page>
  );
}

export default withCatalogue(HelpPage, PAGES_LOADERS);
