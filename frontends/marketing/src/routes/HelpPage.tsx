import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
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
export default function HelpPage({ tours, onStartTour }: HelpPageProps) {
  return (
    <Page>
      <Hero aria-labelledby="help-title">
        <Title id="help-title">Help Center</Title>
        <Lead>Take a guided tour, read the developer docs, or ask us directly.</Lead>
      </Hero>

      <Section aria-labelledby="tours-title">
        <h2 id="tours-title">Guided Tours</h2>
        <p>Short walk-throughs that point at the parts of Kasa as you go. Also in the Help &amp; Tours menu.</p>
        <Grid aria-label="Guided tours">
          {tours.map((tour) => (
            <TourCard key={tour.id} data-testid={`help-tour-${tour.id}`}>
              <h2>{tour.name}</h2>
              <p>{tour.description}</p>
              <Button type="button" onClick={() => onStartTour(tour.id)}>
                {`Start ${tour.name}`}
              </Button>
            </TourCard>
          ))}
        </Grid>
      </Section>

      <Section aria-labelledby="docs-title">
        <h2 id="docs-title">Developer Documentation</h2>
        <p>The API reference, SDKs for six languages, an API tester and code samples live in the developer portal.</p>
        <Links>
          <li>
            <Link to="/developer">Developer Portal and API Documentation</Link>
          </li>
          <li>
            <a href="/api/openapi.json">OpenAPI document (JSON)</a>
          </li>
        </Links>
      </Section>

      <Section aria-labelledby="more-help-title">
        <h2 id="more-help-title">More Help</h2>
        <Links>
          <li>
            <Link to="/pricing">Plans and billing questions</Link>
          </li>
          <li>
            <Link to="/status">Service status</Link>
          </li>
          <li>
            <Link to="/contact">Contact us</Link>
          </li>
        </Links>
        <p>Still stuck? Our support team answers within two business days.</p>
      </Section>
    </Page>
  );
}
