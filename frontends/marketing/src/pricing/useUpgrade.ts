import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { completeSignIn, isApiError, useAuth } from '@kasa/api-client';
import type { EnterpriseInquiryDetails, Plan, PlanId } from '@kasa/contracts';
import { PLANS, saleOf } from '@kasa/contracts/src/plans';
import { answersFromNotes, serverGaps, type ServerGap } from '@kasa/ui/serverOffers';
import { startCheckout } from '../api/billing';
import { loadServerState } from '../api/serverOffers';
import { usePagesT } from '../i18n/pages/usePagesT';
import type { NotifyProps } from '../notify';

/** Spec section 9: the upgrade goes on to the success page 2 s after the button is pressed (at the earliest). */
export const UPGRADE_REDIRECT_MS = 2_000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A checkout waiting for the person to see what this server cannot deliver of the plan yet. */
export interface UpgradeConfirmation {
  plan: Plan;
  gaps: readonly ServerGap[];
  answersFromNotes: boolean;
  proceed: () => void;
  close: () => void;
}

/**
 * Spec section 4's upgrade flow, with a real checkout: sign-in first; when this server cannot deliver all of a plan
 * sold by checkout yet (`serverGaps`), what it lacks is shown first and the person goes on or not; Pro shows
 * 'Processing...', toasts
 * 'Redirecting to payment processing...', pays, takes the fresh token (so the navigation bar shows the new tier at
 * once) and goes to the processor's page, or to /billing/success (closing that toast: the success page says where the
 * payment stands); Free answers 'Already on Free Plan'; Enterprise stores an inquiry.
 */
export function useUpgrade({ notify }: NotifyProps) {
  const t = usePagesT();
  const { isAuthenticated, isLoading, user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [processing, setProcessing] = useState<PlanId | null>(null);
  /** The plan sold by the sales team whose inquiry form is open. */
  const [inquiring, setInquiring] = useState<Plan | null>(null);
  /** The plan whose checkout waits for the person to see what this server lacks. */
  const [confirming, setConfirming] = useState<Omit<UpgradeConfirmation, 'proceed' | 'close'> | null>(null);
  /** The server's state is being asked for a choice: a second press meanwhile does nothing. */
  const checking = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const requireSignIn = () => {
    notify({ title: t('upgrade.signInTitle'), description: t('upgrade.signInText') });
    navigate('/auth');
  };

  const choose = async (plan: Plan, inquiry?: EnterpriseInquiryDetails, confirmed = false) => {
    if (processing || isLoading || checking.current) return;
    if (!isAuthenticated) return requireSignIn();
    // A plan sold by the sales team asks who is asking first (the form sends it back here with its answers).
    if (saleOf(plan.id) === 'sales' && !inquiry) return setInquiring(plan);
    // Nobody pays for what this server cannot do: what it lacks of the plan now is shown before the payment.
    if (saleOf(plan.id) === 'checkout' && !confirmed && user?.subscriptionTier !== plan.id) {
      checking.current = true;
      const state = await loadServerState(queryClient).finally(() => (checking.current = false));
      const gaps = serverGaps(PLANS[plan.id].features, state);
      if (gaps.length > 0) {
        if (mounted.current) setConfirming({ plan, gaps, answersFromNotes: answersFromNotes(state) });
        return;
      }
    }
    setConfirming(null);
    setProcessing(plan.id);
    const startedAt = Date.now();
    // Only a plan sold by checkout goes on to a payment.
    const redirecting =
      saleOf(plan.id) === 'checkout'
        ? notify({ title: t('upgrade.proTitle'), description: t('upgrade.proText') })
        : undefined;
    try {
      const result = await startCheckout(plan.id, inquiry);
      // The service's own message for these outcomes is English; the page says the same in the person's language.
      if (result.outcome === 'already_on_plan') {
        notify({
          title: t('upgrade.alreadyTitle', { plan: plan.name }),
          description: t('upgrade.alreadyText', { plan: plan.name }),
        });
      } else if (result.outcome === 'inquiry_received') {
        setInquiring(null);
        notify({ title: t('upgrade.enterpriseTitle'), description: t('upgrade.enterpriseText') });
      } else {
        if (result.token && result.user) {
          void completeSignIn(queryClient, {
            success: true,
            token: result.token,
            user: result.user,
            message: result.message,
          }).catch(() => undefined);
        }
        await wait(Math.max(0, UPGRADE_REDIRECT_MS - (Date.now() - startedAt)));
        if (!mounted.current) return;
        if (result.redirectUrl.startsWith('/')) {
          // 'Upgrading to Pro' is over once the success page shows: that page says where the payment stands.
          redirecting?.dismiss();
          navigate(result.redirectUrl);
        } else if (/^https:\/\//.test(result.redirectUrl)) window.location.assign(result.redirectUrl);
        // 'Processing...' stays until the next page replaces this one.
        return;
      }
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        setProcessing(null);
        return requireSignIn();
      }
      notify({
        title: t('upgrade.failedTitle'),
        description: (isApiError(error) && error.serverMessage) || t('common.unexpectedError'),
        variant: 'destructive',
      });
    }
    if (mounted.current) setProcessing(null);
  };

  const inquiry = inquiring && {
    plan: inquiring,
    sending: processing === inquiring.id,
    send: (details: EnterpriseInquiryDetails) => void choose(inquiring, details),
    close: () => setInquiring(null),
  };
  const confirmation: UpgradeConfirmation | null = confirming && {
    ...confirming,
    proceed: () => void choose(confirming.plan, undefined, true),
    close: () => setConfirming(null),
  };
  return { choose, processing, ready: !isLoading, inquiry, confirmation };
}
