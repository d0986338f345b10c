import styled from '@emotion/styled';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { isApiError, tierLabel, useAuth } from '@kasa/api-client';
import type { Subscription } from '@kasa/contracts';
import { isPaid } from '@kasa/contracts/src/plans';
import { useMessages } from '@kasa/i18n';
import { Actions, Button, ButtonLink, InlineError, Muted } from '@kasa/ui';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import { openBillingPortal, useSubscription, useSubscriptionChange } from '../api/subscription';
import { useT, type MessageId } from '../i18n/useT';
import { toast } from '../toast/toastStore';
import { BillingHistory } from './BillingHistory';
import { billingFormatsFor } from './billingFormat';
import { ExtraCallsOffer } from './ExtraCallsOffer';
import { billingStanding, type BillingStandingKind } from './billingSummary';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  margin-bottom: 1.5rem;
  h2 {
    margin: 0;
    font-size: 1.125rem;
  }
  h3 {
    margin: 0.5rem 0 0.25rem;
    font-size: 1rem;
  }
  p {
    margin: 0;
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 0.375rem 1.25rem;
  margin: 0;
  dt {
    font-weight: 700;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** A notice that needs the person's attention (a failed payment): the warning colour as a bar, the text in the body colour. */
const Warning = styled.p`
  padding: 0.625rem 0.875rem;
  border-inline-start: 4px solid var(--kasa-warning);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
  color: var(--kasa-fg);
  font-weight: 600;
`;

const STATUS: Record<BillingStandingKind, MessageId> = {
  renews: 'billing.status.active',
  paidUntil: 'billing.status.active',
  ending: 'billing.status.canceled',
  grace: 'billing.status.pastDue',
  ended: 'billing.status.ended',
  contract: 'billing.status.contract',
};

/** A URL the browser may be sent to: the processor's page, over http(s) only. */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/**
 * The Settings page's billing card (GET /api/billing/subscription): the current plan; for a subscription its status,
 * the next renewal and its amount (or when it ends or ended), the grace notice after a failed renewal, and Manage
 * payment (the processor's page), Cancel at period end (after a confirmation) or Resume. Someone who never bought a
 * plan gets a way to the pricing page.
 */
export function BillingSettings() {
  const t = useT();
  const { user } = useAuth();
  const { locale } = useMessages();
  const formats = useMemo(() => billingFormatsFor(locale), [locale]);
  const query = useSubscription();
  const cancel = useSubscriptionChange('cancel');
  const resume = useSubscriptionChange('resume');
  const [confirming, setConfirming] = useState(false);
  const [openingPortal, setOpeningPortal] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);

  const heading = <h2 id="billing-settings-title">{t('billing.title')}</h2>;
  const section = (content: ReactNode) => (
    <Section aria-labelledby="billing-settings-title" data-testid="billing-settings" aria-busy={query.isPending}>
      {heading}
      {content}
    </Section>
  );

  if (query.isPending) return section(<Muted>{t('billing.loading')}</Muted>);
  if (query.isError)
    return section(
      <InlineError role="alert">
        <p>{t('billing.loadFailed')}</p>
        <Button type="button" variant="secondary" compact onClick={() => void query.refetch()}>
          {t('billing.retry')}
        </Button>
      </InlineError>,
    );

  const current: Subscription | null = query.data.subscription;
  const currentPlan = tierLabel(user?.subscriptionTier ?? current?.effectiveTier);

  // Never bought a plan: on Free, the way to Pro; a plan arranged otherwise (an operator's Enterprise) just shows.
  if (!current)
    return section(
      <>
        <Facts>
          <dt>{t('billing.currentPlan')}</dt>
          <dd data-testid="billing-current-plan">{currentPlan}</dd>
        </Facts>
        {!isPaid(user?.subscriptionTier) ? (
          <>
            <Muted>{t('billing.none')}</Muted>
            <Actions style={{ marginTop: 0 }}>
              <ButtonLink to="/pricing" variant="secondary">
                {t('billing.seePlans')}
              </ButtonLink>
            </Actions>
          </>
        ) : null}
        <ExtraCallsOffer currency="USD" />
        <BillingHistory />
      </>,
    );

  const standing = billingStanding(current);
  const plan = current.planName;
  const date = standing.date ? formats.date(standing.date) : null;
  const busy = cancel.isPending || resume.isPending;

  const failed = (error: unknown, title: MessageId) => {
    // The server's words are English: the person reads what happened in their own language.
    const conflict = isApiError(error) && error.status === 409;
    toast({
      title: t(title),
      description: t(conflict ? 'billing.conflict' : 'billing.tryAgain'),
      variant: 'destructive',
    });
    if (conflict) void query.refetch();
  };

  const manage = async () => {
    setOpeningPortal(true);
    try {
      const { url, processor } = await openBillingPortal();
      if (processor !== 'builtin' && isWebAddress(url)) {
        window.location.assign(url);
        return; // the button stays busy until the processor's page replaces this one
      }
      // Test mode has no processor: its "portal" is this very page.
      toast({ title: t('billing.manageTestTitle'), description: t('billing.manageTestText') });
    } catch (error) {
      failed(error, 'billing.portalFailed');
    }
    setOpeningPortal(false);
  };

  const confirmCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast({
          title: t('billing.canceledTitle'),
          description: t('billing.canceledText', { plan }),
          variant: 'success',
        });
      },
      onError: (error) => {
        setConfirming(false);
        failed(error, 'billing.changeFailed');
      },
    });

  const undoCancel = () =>
    resume.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: t('billing.resumedTitle'),
          description: t('billing.resumedText', { plan }),
          variant: 'success',
        }),
      onError: (error) => failed(error, 'billing.changeFailed'),
    });

  return section(
    <>
      <Facts>
        <dt>{t('billing.currentPlan')}</dt>
        <dd data-testid="billing-current-plan">{currentPlan}</dd>
        <dt>{t('billing.subscription')}</dt>
        <dd data-testid="billing-subscription-plan">{plan}</dd>
        <dt>{t('billing.status')}</dt>
        <dd data-testid="billing-status">{t(STATUS[standing.kind])}</dd>
        {date && standing.kind === 'renews' ? (
          <>
            <dt>{t('billing.nextRenewal')}</dt>
            <dd data-testid="billing-renewal">
              {t('billing.renewalValue', { date, amount: formats.money(current.amount, current.currency) })}
            </dd>
          </>
        ) : null}
        {date && standing.kind === 'paidUntil' ? (
          <>
            <dt>{t('billing.paidUntil')}</dt>
            <dd data-testid="billing-paid-until">{date}</dd>
          </>
        ) : null}
        {date && standing.kind === 'ending' ? (
          <>
            <dt>{t('billing.endsOn')}</dt>
            <dd data-testid="billing-ends">{date}</dd>
          </>
        ) : null}
        {date && standing.kind === 'ended' ? (
          <>
            <dt>{t('billing.endedOn')}</dt>
            <dd data-testid="billing-ended">{date}</dd>
          </>
        ) : null}
        {standing.kind === 'contract' && standing.seats !== null ? (
          <>
            <dt>{t('billing.seats')}</dt>
            <dd data-testid="billing-seats">{formats.count(standing.seats)}</dd>
          </>
        ) : null}
        {date && standing.kind === 'contract' ? (
          <>
            <dt>{t('billing.contractEnds')}</dt>
            <dd data-testid="billing-contract-ends">{date}</dd>
          </>
        ) : null}
      </Facts>
      {standing.kind === 'contract' ? <Muted>{t('billing.contractText')}</Muted> : null}
      {standing.kind === 'grace' ? (
        <Warning role="alert" data-testid="billing-grace">
          {date ? t('billing.grace', { plan, date }) : t('billing.graceNoDate', { plan })}
        </Warning>
      ) : null}
      {standing.kind === 'paidUntil' ? <Muted>{t('billing.paidUntilText')}</Muted> : null}
      {standing.kind === 'ending' ? <Muted>{t('billing.endingText', { plan })}</Muted> : null}
      {standing.kind === 'ended' ? <Muted>{t('billing.endedText')}</Muted> : null}
      <Actions style={{ marginTop: 0 }}>
        {current.canManage ? (
          <Button type="button" variant="secondary" disabled={openingPortal} onClick={() => void manage()}>
            {t('billing.manage')}
          </Button>
        ) : null}
        {current.canCancel ? (
          <Button type="button" variant="secondary" disabled={busy} onClick={() => setConfirming(true)}>
            {t('billing.cancel')}
          </Button>
        ) : null}
        {current.canResume ? (
          <Button type="button" variant="primary" disabled={busy} onClick={undoCancel}>
            {t('billing.resume')}
          </Button>
        ) : null}
        {standing.kind === 'ended' || standing.kind === 'paidUntil' ? (
          <ButtonLink to="/pricing" variant="secondary">
            {t('billing.seePlans')}
          </ButtonLink>
        ) : null}
      </Actions>
      {confirming ? (
        <ModalDialog
          title={t('billing.cancelTitle', { plan })}
          onClose={() => setConfirming(false)}
          initialFocus={keep}
          testId="billing-cancel-dialog"
        >
          <p>{date ? t('billing.cancelText', { plan, date }) : t('billing.cancelTextNoDate', { plan })}</p>
          <DialogActions>
            <Button ref={keep} type="button" variant="ghost" onClick={() => setConfirming(false)}>
              {t('billing.keep', { plan })}
            </Button>
            <Button type="button" variant="danger" disabled={cancel.isPending} onClick={confirmCancel}>
              {t('billing.confirmCancel')}
            </Button>
          </DialogActions>
        </ModalDialog>
      ) : null}
      {standing.kind === 'ended' ? null : <ExtraCallsOffer currency={current.currency} />}
      <BillingHistory />
    </>,
  );
}
