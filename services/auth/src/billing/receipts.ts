import PDFDocument from 'pdfkit';
import type { PaymentDocument } from './paymentModel';
import { describePurchase } from './paymentModel';

/** What a receipt says: one completed payment, its payer and its processor's reference. */
export interface Receipt {
  /** The receipt's number: the payment's Kasa reference (`KASA-…`), also shown on the processor's records. */
  number: string;
  issuedAt: Date;
  description: string;
  amount: number;
  currency: string;
  /** Who took the money, in words: `Stripe`, `Paystack`, `Test mode (no money taken)`. */
  processor: string;
  /** The processor's own handle of the payment (Stripe's Checkout Session, Paystack's access code). */
  processorReference: string;
  payerEmail: string;
}

const PROCESSOR_NAMES: Record<string, string> = {
  stripe: 'Stripe',
  paystack: 'Paystack',
  builtin: 'Test mode (no money taken)',
};

/** The receipt of a completed payment, for the payer's address. */
export function receiptOf(payment: PaymentDocument, payerEmail: string): Receipt {
  return {
    number: payment.reference,
    issuedAt: payment.completedAt ?? payment.updatedAt,
    description: describePurchase(payment),
    amount: payment.amount,
    currency: payment.currency,
    processor: PROCESSOR_NAMES[payment.provider] ?? payment.provider,
    processorReference: payment.providerReference ?? payment.reference,
    payerEmail,
  };
}

/** `USD 29.00`: the ISO code rather than a symbol, which the PDF's standard fonts may not have (₵, ₦). */
export const formatAmount = (amount: number, currency: string): string =>
  `${currency} ${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** `7 December 2026, 08:15 UTC`. */
export const formatIssued = (at: Date): string =>
  `${at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}, ` +
  `${at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC`;

/** The receipt's lines, in the order both forms show them. */
function linesOf(receipt: Receipt): Array<[string, string]> {
  return [
    ['Receipt number', receipt.number],
    ['Date', formatIssued(receipt.issuedAt)],
    ['Item', receipt.description],
    ['Amount paid', formatAmount(receipt.amount, receipt.currency)],
    ['Paid through', receipt.processor],
    ['Processor reference', receipt.processorReference],
    ['Billed to', receipt.payerEmail],
  ];
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The receipt as a page of its own (no scripts, no outside resources: it is served with a CSP that allows none). */
export function renderReceiptHtml(receipt: Receipt): string {
  const rows = linesOf(receipt)
    .map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Kasa receipt ${escapeHtml(receipt.number)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;color:#111;background:#fff;margin:2rem auto;max-width:40rem;' +
    'padding:0 1rem}h1{font-size:1.5rem;margin:0}p{color:#444}table{border-collapse:collapse;width:100%;' +
    'margin-top:1.5rem}th,td{text-align:start;padding:.5rem .75rem;border-bottom:1px solid #ddd;' +
    'vertical-align:top}th{width:40%;font-weight:600}td{overflow-wrap:anywhere}</style></head><body>' +
    '<main><h1>Kasa</h1><p>Receipt for your payment. Thank you for using Kasa.</p>' +
    `<table data-testid="receipt">${rows}</table></main></body></html>`
  );
}

/**
 * The receipt as a one-page PDF: the standard Helvetica fonts (nothing embedded) and compressed streams, so it is a
 * few kilobytes and made in a few milliseconds.
 */
export function renderReceiptPdf(receipt: Receipt): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      compress: true,
      info: { Title: `Kasa receipt ${receipt.number}`, Author: 'Kasa', Subject: 'Payment receipt' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(24).text('Kasa');
    doc.moveDown(0.25).font('Helvetica').fontSize(11).fillColor('#444').text('Receipt for your payment');
    doc.moveDown(1.5).fillColor('#111');
    const labelX = doc.page.margins.left;
    const valueX = labelX + 160;
    const width = doc.page.width - doc.page.margins.right - valueX;
    for (const [label, value] of linesOf(receipt)) {
      const y = doc.y;
      doc.font('Helvetica-Bold').fontSize(11).text(label, labelX, y, { width: 150 });
      const labelEnd = doc.y;
      doc.font('Helvetica').text(value, valueX, y, { width });
      doc.y = Math.max(labelEnd, doc.y) + 8;
    }
    doc.moveDown(1).fontSize(10).fillColor('#444').text('Thank you for using Kasa.', labelX);
    doc.end();
  });
}
