import styled from '@emotion/styled';
import { useMemo, useRef, useState } from 'react';
import type { BillingHistoryEntry } from '@kasa/contracts';
import { useMessages } from '@kasa/i18n';
import { Button, InlineError, Muted } from '@kasa/ui';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import { downloadReceiptPdf, fetchReceiptHtml, useBillingHistory } from '../api/billingHistory';
import { useT, type Translate } from '../i18n/useT';
import { toast } from '../toast/toastStore';
import { billingFormatsFor } from './billingFormat';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    padding: 0.5rem 0;
    border-bottom: 1px solid var(--kasa-border);
  }
  .what {
    flex: 1 1 12rem;
    display: flex;
    flex-direction: column;
  }
  .amount {
    font-weight: 700;
  }
`;

const ReceiptFrame = styled.iframe`
  width: 100%;
  height: 26rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: #fff;
`;

/** What a payment bought, in the interface's language (the server's description is English). */
export function purchaseLabel(t: Translate, payment: BillingHistoryEntry, count: (n: number) => string): string {
  if (payment.addOnId) return t('billing.history.extraCalls', { calls: count(payment.calls ?? 0) });
  return t('billing.history.plan', { plan: payment.planName });
}

/**
 * The billing card's history: the person's completed payments, newest first, each with its receipt (shown in a
 * dialog, in a sandboxed frame that runs nothing) and its PDF; an empty state before the first payment.
 */
export function BillingHistory() {
  const t = useT();
  const { locale } = useMessages();
  const formats = useMemo(() => billingFormatsFor(locale), [locale]);
  const count = useMemo(() => {
    const format = new Intl.NumberFormat(locale === 'tw' ? ['tw', 'ak'] : [locale]);
    return (n: number) => format.format(n);
  }, [locale]);
  const history = useBillingHistory();
  const [receipt, setReceipt] = useState<{ reference: string; html: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const close = useRef<HTMLButtonElement>(null);

  const heading = <h3 id="billing-history-title">{t('billing.history.title')}</h3>;

  if (history.isPending)
    return (
      <div aria-labelledby="billing-history-title" data-testid="billing-history" aria-busy>
        {heading}
        <Muted>{t('billing.history.loading')}</Muted>
      </div>
    );
  if (history.isError)
    return (
      <div aria-labelledby="billing-history-title" data-testid="billing-history">
        {heading}
        <InlineError role="alert">
          <p>{t('billing.history.loadFailed')}</p>
          <Button type="button" variant="secondary" compact onClick={() => void history.refetch()}>
            {t('billing.retry')}
          </Button>
        </InlineError>
      </div>
    );

  const payments = history.data.pages.flatMap((page) => page.payments);

  const open = async (payment: BillingHistoryEntry) => {
    setBusy(payment.reference);
    try {
      setReceipt({ reference: payment.reference, html: await fetchReceiptHtml(payment.receiptUrl) });
    } catch {
      toast({ title: t('billing.history.receiptFailed'), description: t('billing.tryAgain'), variant: 'destructive' });
    }
    setBusy(null);
  };

  const download = async (payment: BillingHistoryEntry) => {
    setBusy(payment.reference);
    try {
      await downloadReceiptPdf(payment.receiptPdfUrl, `kasa-receipt-${payment.reference}.pdf`);
    } catch {
      toast({ title: t('billing.history.receiptFailed'), description: t('billing.tryAgain'), variant: 'destructive' });
    }
    setBusy(null);
  };

  return (
    <div aria-labelledby="billing-history-title" data-testid="billing-history">
      {heading}
      {payments.length === 0 ? (
        <Muted data-testid="billing-history-empty">{t('billing.history.empty')}</Muted>
      ) : (
        <List>
          {payments.map((payment) => (
            <li key={payment.reference} data-testid="billing-history-item" data-reference={payment.reference}>
              <span className="what">
                <span>{purchaseLabel(t, payment, count)}</span>
                <Muted as="span">
                  {[formats.date(new Date(payment.completedAt ?? payment.createdAt)), payment.reference].join(' · ')}
                </Muted>
              </span>
              <span className="amount">{formats.money(payment.amount, payment.currency)}</span>
              <Button
                type="button"
                variant="secondary"
                compact
                disabled={busy === payment.reference}
                onClick={() => void open(payment)}
              >
                {t('billing.history.receipt')}
              </Button>
              <Button
                type="button"
                variant="ghost"
                compact
                disabled={busy === payment.reference}
                onClick={() => void download(payment)}
              >
                {t('billing.history.pdf')}
              </Button>
            </li>
          ))}
        </List>
      )}
      {history.hasNextPage ? (
        <Button
          type="button"
          variant="ghost"
          compact
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {t('billing.history.more')}
        </Button>
      ) : null}
      {receipt ? (
        <ModalDialog
          title={t('billing.history.receiptTitle', { reference: receipt.reference })}
          onClose={() => setReceipt(null)}
          initialFocus={close}
          width="40rem"
          testId="billing-receipt-dialog"
        >
          {/* The receipt is the server's page: a frame that may run nothing and reach nothing of this one. */}
          <ReceiptFrame
            sandbox=""
            srcDoc={receipt.html}
            title={t('billing.history.receiptTitle', { reference: receipt.reference })}
            data-testid="billing-receipt-frame"
          />
          <DialogActions>
            <Button ref={close} type="button" variant="ghost" onClick={() => setReceipt(null)}>
              {t('billing.history.close')}
            </Button>
          </DialogActions>
        </ModalDialog>
      ) : null}
    </div>
  );
}
