import styled from '@emotion/styled';
import type { Plan } from '@kasa/contracts';
import type { ServerGap } from '@kasa/ui/serverOffers';
import { useFormats } from '../i18n/format';
import { usePlanText } from '../i18n/usePlanText';
import { usePagesT } from '../i18n/pages/usePagesT';
import { Badge, Button } from '../ui';
import { ServerGapList } from './ServerGapList';

const Card = styled.li<{ highlighted: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 1.5rem;
  background: var(--kasa-surface);
  border: ${({ highlighted }) => (highlighted ? '2px solid var(--kasa-primary)' : '1px solid var(--kasa-border)')};
  border-radius: calc(var(--kasa-radius) * 1.5);
  h2 {
    margin: 0;
    font-size: 1.375rem;
  }
  h3 {
    margin: 0.5rem 0 0.25rem;
    font-size: 0.9375rem;
    color: var(--kasa-muted);
  }
  ul {
    margin: 0;
    padding-left: 1.25rem;
  }
  p {
    margin: 0;
    color: var(--kasa-muted);
  }
`;

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
`;

const Price = styled.p`
  && {
    color: var(--kasa-fg);
  }
  strong {
    font-size: 2.25rem;
    font-weight: 800;
  }
`;

const Choose = styled(Button)`
  margin-top: auto;
  width: 100%;
`;

export interface PlanCardProps {
  plan: Plan;
  isCurrent: boolean;
  /** This plan's checkout is running. */
  processing: boolean;
  disabled: boolean;
  onChoose: (plan: Plan) => void;
  /** What of this plan the server cannot deliver now (`serverGaps`); shown under what it includes. */
  gaps?: readonly ServerGap[];
}

/**
 * One plan of the pricing page: price, what it includes and lacks, what of it this server cannot deliver yet (which
 * also describes the button, so it is heard before choosing), and its button.
 */
export function PlanCard({ plan, isCurrent, processing, disabled, onChoose, gaps = [] }: PlanCardProps) {
  const t = usePagesT();
  const planText = usePlanText();
  const { price, list } = useFormats();
  const headingId = `plan-${plan.id}-name`;
  const gapsId = `plan-${plan.id}-server`;
  return (
    <Card highlighted={plan.popular} aria-labelledby={headingId} data-testid={`plan-${plan.id}`}>
      <Header>
        <h2 id={headingId}>{plan.name}</h2>
        {plan.popular ? <Badge>{t('common.mostPopular')}</Badge> : null}
        {isCurrent ? <Badge>{t('plan.currentPlan')}</Badge> : null}
      </Header>
      <Price>
        <strong>{price(plan.price)}</strong>
        {t('common.perPeriod', { period: planText(plan.period) })}
      </Price>
      <p>{planText(plan.description)}</p>
      <h3>{t('plan.includes')}</h3>
      <ul>
        {plan.features.map((feature) => (
          <li key={feature}>{planText(feature)}</li>
        ))}
      </ul>
      {plan.enterpriseExtras.length > 0 ? (
        <>
          <h3>{t('plan.enterpriseExtras')}</h3>
          <ul>
            {plan.enterpriseExtras.map((extra) => (
              <li key={extra}>{planText(extra)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {gaps.length > 0 ? (
        <>
          <h3>{t('offers.heading')}</h3>
          <ServerGapList gaps={gaps} id={gapsId} testId={`plan-${plan.id}-server-gaps`} />
        </>
      ) : null}
      {plan.limitations.length > 0 ? (
        <>
          <h3>{t('plan.limitations')}</h3>
          <ul>
            {plan.limitations.map((limitation) => (
              <li key={limitation}>{planText(limitation)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {plan.addOns.length > 0 ? <p>{t('plan.addOns', { addOns: list(plan.addOns.map(planText)) })}</p> : null}
      <Choose
        type="button"
        variant={plan.popular ? 'primary' : 'secondary'}
        disabled={disabled || processing}
        aria-busy={processing}
        aria-describedby={gaps.length > 0 ? gapsId : undefined}
        onClick={() => onChoose(plan)}
      >
        {processing ? t('plan.processing') : planText(plan.buttonText)}
      </Choose>
    </Card>
  );
}
