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

  /** The signed-in person's subscription tier badge ('Free', 'Pro', 'Enterprise'). */
  tierBadge() {
    return this.page.getByTestId('nav-tier');
  }

  chatLink() {
    return this.root.getByRole('link', { name: 'Chat', exact: true });
  }

  /** The Help & Tours menu's button, and an entry of its open panel. */
  helpMenu() {
    return this.page.getByRole('button', { name: 'Help & Tours' });
  }

  helpMenuItem(name: string) {
    return this.page.getByRole('group', { name: 'Help & Tours' }).getByRole('button', { name });
  }

  themePicker() {
    return this.page.getByRole('button', { name: 'Theme', exact: true });
  }

  themeMenuItem(name: string | RegExp) {
    return this.page.getByRole('group', { name: 'Theme' }).getByRole('button', { name });
  }

  /** The phone-width menu toggle ('Menu' / 'Close'). */
  menuToggle() {
    return this.root.getByRole('button', { name: /^(Menu|Close)$/ });
  }

  link(name: string) {
    return this.root.getByRole('link', { name, exact: true });
  }
}
