import { useMemo } from 'react';
import { useAuth } from '@kasa/api-client';
import { ADD_ONS, canBuyAddOn, type PlanCurrency } from '@kasa/contracts/src/plans';
import { useMessages } from '@kasa/i18n';
import { Actions, Button, Muted } from '@kasa/ui';
import { useBuyAddOn } from '../api/billingHistory';
import { useT } from '../i18n/useT';
import { toast } from '../toast/toastStore';
import { billingFormatsFor } from './billingFormat';

const PACK = ADD_ONS['extra-calls'];

/** A URL the browser may be sent to: the processor's page, over http(s) only. */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/**
 * Extra API calls for this month (the FAQ's "Pro can buy extra calls"), for the plans that the plans table lets buy
 * them: one pack through the same checkout as a plan, in the currency of the person's subscription. In test mode it
 * completes at once; otherwise the browser goes to the processor's page and comes back to the success page.
 */
export function ExtraCallsOffer({ currency }: { currency: PlanCurrency }) {
  const t = useT();
  const { user } = useAuth();
  const { locale } = useMessages();
  const formats = useMemo(() => billingFormatsFor(locale), [locale]);
  const buy = useBuyAddOn();
  if (!canBuyAddOn(user?.subscriptionTier, PACK.id)) return null;

  const calls = new Intl.NumberFormat(locale === 'tw' ? ['tw', 'ak'] : [locale]).format(PACK.calls);
  const price = formats.money(PACK.prices[currency], currency);

  const purchase = () =>
    buy.mutate(
      { addOnId: PACK.id, currency },
      {
        onSuccess: (answer) => {
          if (answer.outcome !== 'checkout') return;
          if (answer.status === 'pending' && isWebAddress(answer.redirectUrl)) {
            window.location.assign(answer.redirectUrl);
            return;
          }
          toast({
            title: t('billing.extraCalls.boughtTitle'),
            description: t('billing.extraCalls.boughtText', { calls }),
            variant: 'success',
          });
        },
        onError: () =>
          toast({ title: t('billing.extraCalls.failed'), description: t('billing.tryAgain'), variant: 'destructive' }),
      },
    );

  return (
    <div data-testid="billing-extra-calls">
      <h3>{t('billing.extraCalls.title')}</h3>
      <Muted>{t('billing.extraCalls.text', { calls, price })}</Muted>
      <Actions style={{ marginTop: '0.5rem' }}>
        <Button type="button" variant="secondary" disabled={buy.isPending} onClick={purchase}>
          {t('billing.extraCalls.buy', { calls })}
        </Button>
      </Actions>
    </div>
  );
}
