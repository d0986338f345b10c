import type { Page } from 'playwright-core';

/** The /auth page: Sign In and Sign Up tabs. */
export class AuthPage {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string) {
    await this.page.goto(`${baseUrl}/auth`);
    await this.page.getByRole('tab', { name: 'Sign Up' }).waitFor();
  }

  async signUp(person: { username: string; email: string; password: string; confirm?: string }) {
    await this.page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = this.page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Username').fill(person.username);
    await form.getByLabel('Email').fill(person.email);
    await form.getByLabel('Password', { exact: true }).fill(person.password);
    await form.getByLabel('Confirm Password').fill(person.confirm ?? person.password);
    await form.getByRole('button', { name: 'Create Account' }).click();
  }

  async signIn(person: { email: string; password: string }) {
    await this.page.getByRole('tab', { name: 'Sign In' }).click();
    const form = this.page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(person.email);
    await form.getByLabel('Password', { exact: true }).fill(person.password);
    await form.getByRole('button', { name: 'Sign In' }).click();
  }
}
