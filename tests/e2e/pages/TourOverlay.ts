import type { Page } from 'playwright-core';

/** A running guided tour: its card, controls and the backdrop. */
export class TourOverlay {
  constructor(private readonly page: Page) {}

  card() {
    return this.page.getByTestId('tour-card');
  }

  title() {
    return this.card().getByRole('heading');
  }

  counter() {
    return this.card().getByText(/^Step \d+ of \d+$/);
  }

  button(name: 'Next' | 'Back' | 'Complete' | 'Skip Tour' | 'Close tour') {
    return this.card().getByRole('button', { name, exact: true });
  }

  async clickBackdrop() {
    // The top-left corner is backdrop, never the card.
    await this.page.getByTestId('tour-backdrop').click({ position: { x: 5, y: 400 } });
  }

  guidance() {
    return this.page.evaluate(() => window.localStorage.getItem('kasa_guidance'));
  }
}
