import type { Page } from 'playwright-core';

/** /pricing: the plan cards with their buttons, the current tier badge, add-ons and FAQ. */
export class PricingPage {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string) {
    await this.page.goto(`${baseUrl}/pricing`);
    await this.plan('pro').waitFor();
  }

  heading() {
    return this.page.getByRole('heading', { name: 'Choose Your Plan', level: 1 });
  }

  plan(id: 'free' | 'pro' | 'enterprise') {
    return this.page.getByTestId(`plan-${id}`);
  }

  /** The plan's button: 'Get Started Free', 'Upgrade to Pro', 'Contact Sales', or 'Processing...' while it runs. */
  planButton(id: 'free' | 'pro' | 'enterprise') {
    return this.plan(id).getByRole('button');
  }

  tierBadge() {
    return this.page.getByTestId('pricing-tier');
  }

  faq() {
    return this.page.getByRole('heading', { name: 'Frequently Asked Questions' });
  }
}
