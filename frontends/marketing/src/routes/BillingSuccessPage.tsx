import styled from '@emotion/styled';
import type { PaymentStatus } from '@kasa/contracts';
import { useSearchParams } from 'react-router-dom';
import { isPaymentReference, usePayment } from '../api/billing';
import { useFormats } from '../i18n/format';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT, type PagesMessageId } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
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

const PAYMENT_STATUS: Record<PaymentStatus, PagesMessageId> = {
  completed: 'billing.status.completed',
  pending: 'billing.status.pending',
  failed: 'billing.status.failed',
};

/** Route `/billing/success`: the payment's Transaction Reference (from `?reference=`) and what was bought. */
function BillingSuccessPage() {
  const t = usePagesT();
  const { price } = useFormats();
  const [params] = useSearchParams();
  // Shown as text whatever it is (React escapes it), but only a well-formed reference is looked up.
  const reference = params.get('reference')?.slice(0, 64) ?? null;
  const payment = usePayment(reference);
  const details = isPaymentReference(reference) ? payment.data : undefined;

  return (
    <Page>
      <Hero aria-labelledby="billing-success-title">
        <Title id="billing-success-title">{t('billing.title')}</Title>
        <Lead>{details ? t('billing.welcome', { plan: details.planName }) : t('billing.thanks')}</Lead>
        {reference ? (
          <Receipt>
            <dt>{t('billing.reference')}</dt>
            <dd data-testid="transaction-reference">{reference}</dd>
            {details ? (
              <>
                <dt>{t('billing.plan')}</dt>
                <dd data-testid="billing-plan">{details.planName}</dd>
                <dt>{t('billing.amount')}</dt>
                <dd>{t('billing.amountValue', { price: price(details.amount), currency: details.currency })}</dd>
                <dt>{t('billing.status')}</dt>
                <dd>{t(PAYMENT_STATUS[details.status])}</dd>
              </>
            ) : null}
          </Receipt>
        ) : null}
        <Actions>
          <ButtonLink to="/developer" variant="primary">
            {t('billing.developer')}
          </ButtonLink>
          <ButtonLink to="/">{t('common.backHome')}</ButtonLink>
        </Actions>
      </Hero>
    </Page>
  );
}

export default withCatalogue(BillingSuccessPage, PAGES_LOADERS);
