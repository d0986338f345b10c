import styled from '@emotion/styled';
import { usePlans } from '../api/plans';
import { useFormats } from '../i18n/format';
import { usePlanText } from '../i18n/usePlanText';
import { useT } from '../i18n/useT';
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
  const t = useT();
  const planText = usePlanText();
  const { price } = useFormats();
  const { data, isPending, isError } = usePlans();
  return (
    <Section aria-labelledby="plans-teaser-title">
      <h2 id="plans-teaser-title">{t('teaser.title')}</h2>
      <p>{t('teaser.text')}</p>
      {isPending ? (
        <p role="status">{t('common.loadingPlans')}</p>
      ) : isError ? (
        <p role="status">{t('teaser.unavailable')}</p>
      ) : (
        <Grid>
          {data.plans.map((plan) => (
            <TeaserCard key={plan.id} data-testid={`teaser-plan-${plan.id}`}>
              <h2>
                {plan.name} {plan.popular ? <Badge>{t('common.mostPopular')}</Badge> : null}
              </h2>
              <p>
                <strong>{price(plan.price)}</strong>
                {t('common.perPeriod', { period: planText(plan.period) })}
              </p>
              <p>{planText(plan.description)}</p>
              <ul>
                {plan.features.slice(0, 3).map((feature) => (
                  <li key={feature}>{planText(feature)}</li>
                ))}
              </ul>
            </TeaserCard>
          ))}
        </Grid>
      )}
      <More>
        <ButtonLink to="/pricing">{t('teaser.compare')}</ButtonLink>
      </More>
    </Section>
  );
}
