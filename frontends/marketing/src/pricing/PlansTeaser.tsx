import styled from '@emotion/styled';
import { formatPrice, usePlans } from '../api/plans';
import { Actions, Badge, ButtonLink, Card, Grid, Section } from '../ui';

const More = styled(Actions)`
  margin-top: 1.5rem;
`;

const TeaserCard = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  strong {
    font-size: 1.75rem;
  }
  ul {
    margin: 0;
    padding-left: 1.25rem;
  }
`;

/** Three plan cards in brief (the landing and welcome pages), from the same data as the pricing page. */
export function PlansTeaser() {
  const { data, isPending, isError } = usePlans();
  return (
    <Section aria-labelledby="plans-teaser-title">
      <h2 id="plans-teaser-title">Simple, Transparent Pricing</h2>
      <p>Start free; upgrade when you need voice, more languages and more calls.</p>
      {isPending ? (
        <p role="status">Loading plans…</p>
      ) : isError ? (
        <p role="status">Plans are unavailable right now. See the pricing page for details.</p>
      ) : (
        <Grid>
          {data.plans.map((plan) => (
            <TeaserCard key={plan.id} data-testid={`teaser-plan-${plan.id}`}>
              <h2>
                {plan.name} {plan.popular ? <Badge>Most Popular</Badge> : null}
              </h2>
              <p>
                <strong>{formatPrice(plan.price)}</strong>/{plan.period}
              </p>
              <p>{plan.description}</p>
              <ul>
                {plan.features.slice(0, 3).map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </TeaserCard>
          ))}
        </Grid>
      )}
      <More>
        <ButtonLink to="/pricing">Compare Plans</ButtonLink>
      </More>
    </Section>
  );
}
