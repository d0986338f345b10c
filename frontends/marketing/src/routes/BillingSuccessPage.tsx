import styled from '@emotion/styled';
import { useSearchParams } from 'react-router-dom';
import { isPaymentReference, usePayment } from '../api/billing';
import { formatPrice } from '../api/plans';
import { Actions, ButtonLink, Hero, Lead, Page, Title } from '../ui';

const Receipt = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 0.5rem 1.5rem;
  max-width: 30rem;
  margin: 0 auto 2rem;
  padding: 1.25rem 1.5rem;
  background: var(--kasa-surface);
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  text-align: left;
  dt {
    font-weight: 700;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** Route `/billing/success`: the payment's Transaction Reference (from `?reference=`) and what was bought. */
export default function BillingSuccessPage() {
  const [params] = useSearchParams();
  // Shown as text whatever it is (React escapes it), but only a well-formed reference is looked up.
  const reference = params.get('reference')?.slice(0, 64) ?? null;
  const payment = usePayment(reference);
  const details = isPaymentReference(reference) ? payment.data : undefined;

  return (
    <Page>
      <Hero aria-labelledby="billing-success-title">
        <Title id="billing-success-title">Payment Successful!</Title>
        <Lead>
          {details
            ? `Welcome to Kasa ${details.planName}. Your new plan is active now.`
            : 'Thank you. Your plan is being updated.'}
        </Lead>
        {reference ? (
          <Receipt>
            <dt>Transaction Reference</dt>
            <dd data-testid="transaction-reference">{reference}</dd>
            {details ? (
              <>
                <dt>Plan</dt>
                <dd data-testid="billing-plan">{details.planName}</dd>
                <dt>Amount</dt>
                <dd>{`${formatPrice(details.amount)} ${details.currency}`}</dd>
                <dt>Status</dt>
                <dd>{details.status === 'completed' ? 'Paid' : details.status}</dd>
              </>
            ) : null}
          </Receipt>
        ) : null}
        <Actions>
          <ButtonLink to="/developer" variant="primary">
            Go to Developer Portal
          </ButtonLink>
          <ButtonLink to="/">Back to Home</ButtonLink>
        </Actions>
      </Hero>
    </Page>
  );
}
