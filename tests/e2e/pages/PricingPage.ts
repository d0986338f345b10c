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

  /**
   * Chooses a plan sold by checkout as a person would: presses its button and, when this server cannot deliver all of
   * the plan now, goes on past 'Before you pay' (which lists what is missing) with 'Continue to payment'.
   */
  async upgrade(id: 'pro') {
    await this.planButton(id).click();
    const confirm = this.upgradeConfirm();
    await confirm
      .or(this.plan(id).getByRole('button', { name: 'Processing...' }))
      .first()
      .waitFor();
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Continue to payment' }).click();
  }

  /** 'Before you pay': what of the plan this server cannot deliver now, before a checkout. */
  upgradeConfirm() {
    return this.page.getByTestId('upgrade-confirm');
  }

  tierBadge() {
    return this.page.getByTestId('pricing-tier');
  }

  faq() {
    return this.page.getByRole('heading', { name: 'Frequently Asked Questions' });
  }
}
