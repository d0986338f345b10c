import type { Page } from 'playwright-core';

/** The banner every page shows while payments take no money (the built-in provider). */
export function testModeBanner(page: Page) {
  return page.getByRole('region', { name: 'Test mode' });
}

/** /billing/success?reference=…: where a checkout comes back to, verified with the server. */
export class BillingSuccessPage {
  constructor(private readonly page: Page) {}

  heading(name: string | RegExp) {
    return this.page.getByRole('heading', { name, level: 1 });
  }

  /** The phase the page is in (`checking`, `paid`, `stillPending`, `failed`, `notFound`, `signedOut`, …). */
  phase() {
    return this.page.locator('[data-phase]').getAttribute('data-phase');
  }

  reference() {
    return this.page.getByTestId('transaction-reference');
  }

  plan() {
    return this.page.getByTestId('billing-plan');
  }

  status() {
    return this.page.getByTestId('billing-status');
  }

  amount() {
    return this.page.getByTestId('billing-amount');
  }
}

/** The Settings page's "Plan & billing" card. */
export class BillingSettings {
  constructor(private readonly page: Page) {}

  get root() {
    return this.page.getByRole('region', { name: 'Plan & billing' });
  }

  currentPlan() {
    return this.root.getByTestId('billing-current-plan');
  }

  status() {
    return this.root.getByTestId('billing-status');
  }

  renewal() {
    return this.root.getByTestId('billing-renewal');
  }

  endsOn() {
    return this.root.getByTestId('billing-ends');
  }

  button(name: 'Manage payment' | 'Cancel subscription' | 'Resume subscription') {
    return this.root.getByRole('button', { name, exact: true });
  }

  seePlans() {
    return this.root.getByRole('link', { name: 'See plans and pricing' });
  }

  /** The billing history inside the card. */
  history() {
    return this.root.getByTestId('billing-history');
  }

  historyItems() {
    return this.history().getByTestId('billing-history-item');
  }

  historyItem(reference: string) {
    return this.history().locator(`[data-testid="billing-history-item"][data-reference="${reference}"]`);
  }

  /** The receipt, opened from the history: a dialog with the receipt's page in a sandboxed frame. */
  receiptDialog() {
    return this.page.getByRole('dialog', { name: /^Receipt KASA-/ });
  }

  receiptFrame() {
    return this.page.frameLocator('[data-testid="billing-receipt-frame"]');
  }

  /** Pro's extra-calls offer. */
  extraCalls() {
    return this.root.getByTestId('billing-extra-calls');
  }

  /** The confirmation of a cancellation: a modal dialog. */
  cancelDialog() {
    return this.page.getByRole('dialog', { name: /^Cancel your .+ plan\?$/ });
  }
}
