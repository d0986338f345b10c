import type { Page } from 'playwright-core';

/** The shell's navigation bar, whose links follow the sign-in state. */
export class NavBar {
  constructor(private readonly page: Page) {}

  get root() {
    return this.page.getByRole('navigation').first();
  }

  logoutButton() {
    return this.root.getByRole('button', { name: 'Logout' });
  }

  signInButton() {
    return this.root.getByRole('button', { name: 'Sign In' }).or(this.root.getByRole('link', { name: 'Sign In' }));
  }

  chatLink() {
    return this.root.getByRole('link', { name: 'Chat', exact: true });
  }
}
