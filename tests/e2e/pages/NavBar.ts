import type { Locator, Page } from 'playwright-core';

/** The navigation bar's menus, by their buttons' test ids (the same in every language). */
export const NAV_MENUS = ['language-picker', 'help-menu', 'theme-picker'] as const;
export type NavMenu = (typeof NAV_MENUS)[number];

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

  /** A menu's button (Language, Help & Tours, Theme), in any language. */
  menuButton(menu: NavMenu) {
    return this.page.getByTestId(menu);
  }

  /** Opens a menu and answers its panel (the element its button controls), once shown. */
  async openMenu(menu: NavMenu): Promise<Locator> {
    const button = this.menuButton(menu);
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    const panel = this.page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
    await panel.waitFor();
    return panel;
  }

  /** The language menu's choices, each `data-locale` (shown while the menu is open). */
  languageChoices() {
    return this.page.locator('[data-locale]');
  }

  /** The phone-width menu toggle, found in any language. */
  foldToggle() {
    return this.page.getByTestId('menu-toggle');
  }

  /** The links and the account area that the phone's Menu button folds away (shown while it is open). */
  foldedMenu() {
    return this.page.locator('#main-menu');
  }
}
