import styled from '@emotion/styled';
import { describeFailure, tierLabel, useAuth } from '@kasa/api-client';
import { formatPrice, usePlans } from '../api/plans';
import type { NotifyProps } from '../notify';
import { PlanCard } from '../pricing/PlanCard';
import { useUpgrade } from '../pricing/useUpgrade';
import { Actions, Badge, Button, ButtonLink, Card, Eyebrow, Grid, Hero, Lead, Page, Section, Title } from '../ui';

const TierLine = styled.p`
  margin: 0 0 1.5rem;
  font-weight: 600;
`;

const Plans = styled(Grid)`
  grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr));
  align-items: stretch;
`;

const Faq = styled.dl`
  max-width: 46rem;
  margin: 1.5rem auto 0;
  dt {
    margin: 1.25rem 0 0.25rem;
    font-weight: 700;
  }
  dd {
    margin: 0;
    color: var(--kasa-muted);
  }
`;

/** Route `/pricing`: the three plans with a working upgrade, the premium add-ons and the FAQ. */
export default function PricingPage({ notify }: NotifyProps) {
  const { user, isAuthenticated } = useAuth();
  const plans = usePlans();
  const { choose, processing, ready } = useUpgrade({ notify });
  const currentTier = isAuthenticated ? user?.subscriptionTier : undefined;

  return (
    <Page>
      <Hero aria-labelledby="pricing-title">
        <Eyebrow>Pricing</Eyebrow>
        <Title id="pricing-title">Choose Your Plan</Title>
        <Lead>Start free and upgrade when you need voice, 120+ languages and more API calls.</Lead>
        <TierLine>
          Your current tier: <Badge data-testid="pricing-tier">{tierLabel(currentTier).toUpperCase()}</Badge>
        </TierLine>
        <Actions>
          <ButtonLink to="/">Back to Home</ButtonLink>
          <ButtonLink to="/chat" variant="primary">
            Go to Chat
          </ButtonLink>
        </Actions>
      </Hero>

      {plans.isPending ? (
        <p role="status">Loading plans…</p>
      ) : plans.isError ? (
        <Card as="div" role="alert">
          <h2>We could not load the plans</h2>
          <p>{describeFailure(plans.error)}</p>
          <Button type="button" onClick={() => void plans.refetch()}>
            Retry
          </Button>
        </Card>
      ) : (
        <>
          <section aria-label="Plans">
            <Plans>
              {plans.data.plans.map((plan) => (
                <PlanCard
                  key={plan.id}
                  plan={plan}
                  isCurrent={plan.id === (currentTier ?? 'free')}
                  processing={processing === plan.id}
                  disabled={!ready || (processing !== null && processing !== plan.id)}
                  onChoose={(chosen) => void choose(chosen)}
                />
              ))}
            </Plans>
          </section>

          <Section aria-labelledby="addons-title">
            <h2 id="addons-title">Premium Add-ons</h2>
            <p>Add what you need on top of your plan.</p>
            <Grid>
              {plans.data.addOns.map((addOn) => (
                <Card key={addOn.id}>
                  <h2>{addOn.name}</h2>
                  <p>
                    <strong>{formatPrice(addOn.price)}</strong> / {addOn.period}
                  </p>
                  <p>{addOn.description}</p>
                </Card>
              ))}
            </Grid>
          </Section>

          <Section aria-labelledby="faq-title" id="faq">
            <h2 id="faq-title">Frequently Asked Questions</h2>
            <Faq>
              {plans.data.faq.map((entry) => (
                <div key={entry.question}>
                  <dt>{entry.question}</dt>
                  <dd>{entry.answer}</dd>
                </div>
              ))}
            </Faq>
          </Section>
        </>
      )}
    </Page>
  );
}
