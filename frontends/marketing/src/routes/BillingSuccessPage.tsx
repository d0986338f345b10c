import styled from '@emotion/styled';
import type { PaymentStatus } from '@kasa/contracts';
import { isApiError, useAuth } from '@kasa/api-client';
import { useMessages } from '@kasa/i18n';
import { useSearchParams } from 'react-router-dom';
import { isPaymentReference, useCheckoutVerification } from '../api/billing';
import { checkoutPhase, type CheckoutPhase } from '../billing/checkoutPhase';
import { useFormats } from '../i18n/format';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT, type PagesMessageId } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import { Actions, Button, ButtonLink, Hero, Lead, Page, Title } from '../ui';

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
  text-align: start;
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

/** Each phase's heading and what it tells the person (what happened, and what to do). */
const TEXT: Record<Exclude<CheckoutPhase, 'paid'>, { title: PagesMessageId; text: PagesMessageId }> = {
  noReference: { title: 'billing.noReferenceTitle', text: 'billing.noReferenceText' },
  signedOut: { title: 'billing.signInTitle', text: 'billing.signInText' },
  checking: { title: 'billing.checkingTitle', text: 'billing.checkingText' },
  stillPending: { title: 'billing.pendingTitle', text: 'billing.pendingText' },
  failed: { title: 'billing.failedTitle', text: 'billing.failedText' },
  notFound: { title: 'billing.notFoundTitle', text: 'billing.notFoundText' },
  unavailable: { title: 'billing.unavailableTitle', text: 'billing.unavailableText' },
};

/**
 * Route `/billing/success?reference=…`, where the processor sends the person back: it asks the server to verify the
 * payment (POST /api/billing/checkout/{reference}/verify) and says where it stands: checking (asking again with
 * growing waits while the processor has not confirmed it), paid (with the plan; the fresh token makes the navigation
 * bar show it at once), not confirmed yet, failed, unknown, or the server did not answer, each with what to do next.
 * The Transaction Reference from the query shows in every case (as text, whatever it is).
 */
function BillingSuccessPage() {
  const t = usePagesT();
  const { money } = useFormats();
  const { locale } = useMessages();
  const [params] = useSearchParams();
  const { isAuthenticated, isLoading } = useAuth();
  const reference = params.get('reference')?.slice(0, 64) || null;
  const verification = useCheckoutVerification(reference);
  const answer = verification.data;
  const error = verification.error;

  const phase = checkoutPhase({
    reference,
    wellFormed: isPaymentReference(reference),
    authLoading: isLoading,
    signedIn: isAuthenticated,
    status: answer?.status,
    answers: verification.answers,
    fetching: verification.isFetching,
    errorStatus: error ? (isApiError(error) ? error.status : 0) : null,
  });
  const payment = answer?.payment;
  const title = phase === 'paid' ? t('billing.title') : t(TEXT[phase].title);
  // An add-on pack changes no plan: the page says what it bought instead.
  const paidText = payment?.addOnId
    ? t('billing.extraCallsWelcome', {
        calls: new Intl.NumberFormat(locale === 'tw' ? ['tw', 'ak'] : [locale]).format(payment.calls ?? 0),
      })
    : t('billing.welcome', { plan: payment?.planName ?? '' });
  const text = phase === 'paid' ? paidText : t(TEXT[phase].text);

  return (
    <Page>
      <Hero aria-labelledby="billing-success-title" aria-busy={phase === 'checking'} data-phase={phase}>
        <Title id="billing-success-title">{title}</Title>
        {/* Announced as it changes: from checking to paid, not confirmed or failed. */}
        <Lead role="status" data-testid="billing-message">
          {text}
        </Lead>
        {reference ? (
          <Receipt>
            <dt>{t('billing.reference')}</dt>
            <dd data-testid="transaction-reference">{reference}</dd>
            {payment ? (
              <>
                <dt>{t('billing.plan')}</dt>
                <dd data-testid="billing-plan">{payment.planName}</dd>
                <dt>{t('billing.amount')}</dt>
                <dd data-testid="billing-amount">{money(payment.amount, payment.currency)}</dd>
                <dt>{t('billing.status')}</dt>
                <dd data-testid="billing-status">{t(PAYMENT_STATUS[payment.status])}</dd>
              </>
            ) : null}
          </Receipt>
        ) : null}
        <Actions>
          {phase === 'signedOut' ? (
            <ButtonLink to="/auth" variant="primary">
              {t('billing.signIn')}
            </ButtonLink>
          ) : null}
          {phase === 'stillPending' || phase === 'unavailable' ? (
            <Button type="button" variant="primary" onClick={() => void verification.refetch()}>
              {t('billing.checkAgain')}
            </Button>
          ) : null}
          {phase === 'failed' || phase === 'noReference' ? (
            <ButtonLink to="/pricing" variant="primary">
              {t('billing.backToPricing')}
            </ButtonLink>
          ) : null}
          {phase === 'notFound' ? (
            <ButtonLink to="/settings" variant="primary">
              {t('billing.settings')}
            </ButtonLink>
          ) : null}
          <ButtonLink to="/developer" variant={phase === 'paid' ? 'primary' : 'secondary'}>
            {t('billing.developer')}
          </ButtonLink>
          <ButtonLink to="/">{t('common.backHome')}</ButtonLink>
        </Actions>
      </Hero>
    </Page>
  );
}

export default withCatalogue(BillingSuccessPage, PAGES_LOADERS);
