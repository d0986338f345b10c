import type { Page } from 'playwright-core';

/** The shell's footer: newsletter box, link groups, the two mailboxes and the social links. */
export class Footer {
  constructor(private readonly page: Page) {}

  get root() {
    return this.page.getByRole('contentinfo');
  }

  newsletter() {
    return this.root.getByRole('form', { name: 'Newsletter' });
  }

  async subscribe(email: string) {
    await this.newsletter().getByLabel('Email address').fill(email);
    await this.newsletter().getByRole('button', { name: 'Subscribe' }).click();
  }

  mailboxes() {
    return this.root.locator('a[href^="mailto:"]');
  }

  socialLinks() {
    return this.root.getByRole('list', { name: 'Kasa elsewhere' }).getByRole('link');
  }

  link(name: string) {
    return this.root.getByRole('link', { name, exact: true });
  }
}
