import type { Page } from 'playwright-core';

/** /contact: the contact form and the mailboxes. */
export class ContactPage {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string) {
    await this.page.goto(`${baseUrl}/contact`);
    await this.form().waitFor();
  }

  form() {
    return this.page.getByRole('form', { name: 'Contact' });
  }

  async fill(message: { name: string; email: string; subject: string; message: string }) {
    const form = this.form();
    await form.getByLabel('Name').fill(message.name);
    await form.getByLabel('Email').fill(message.email);
    await form.getByLabel('Subject').fill(message.subject);
    await form.getByLabel('Message').fill(message.message);
  }

  async send() {
    await this.form().getByRole('button', { name: 'Send Message' }).click();
  }

  confirmation() {
    return this.page.getByTestId('contact-confirmation');
  }
}
