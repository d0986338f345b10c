import type { Page } from 'playwright-core';

export type AdminSection = 'People' | 'Sales' | 'Operators' | 'Audit log';

/** The operator console (/admin): its sections, a person's page and its dialogs. */
export class AdminConsole {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string, path = '') {
    await this.page.goto(`${baseUrl}/admin${path}`);
    await this.app().waitFor();
  }

  app() {
    return this.page.getByTestId('admin-app');
  }

  section(name: AdminSection) {
    return this.page.getByRole('tablist', { name: 'Operator console sections' }).getByRole('tab', { name });
  }

  async openSection(name: AdminSection) {
    await this.section(name).click();
    await this.section(name).and(this.page.locator('[aria-selected="true"]')).waitFor();
  }

  dialog(name: string | RegExp) {
    return this.page.getByRole('dialog', { name });
  }

  notice() {
    return this.page.getByTestId('notice');
  }

  actionError() {
    return this.page.getByTestId('action-error');
  }

  // --- People
  async search(text: string) {
    await this.page.getByRole('searchbox', { name: 'Search people' }).fill(text);
    await this.page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  }

  result(personId: string) {
    return this.page.locator(`[data-testid="person-result"][data-person="${personId}"]`);
  }

  /** Finds a person by `text` and opens their page. */
  async openPerson(text: string, personId: string) {
    await this.search(text);
    await this.result(personId).getByRole('link').click();
    await this.person(personId).waitFor();
  }

  person(personId: string) {
    return this.page.locator(`[data-testid="person-detail"][data-person="${personId}"]`);
  }

  planForm() {
    return this.page.getByTestId('plan-form');
  }

  // --- Sales
  inquiry(id: string) {
    return this.page.locator(`[data-testid="inquiry"][data-inquiry="${id}"]`);
  }

  // --- Operators
  operator(id: string) {
    return this.page.locator(`[data-testid="operator"][data-operator="${id}"]`);
  }

  // --- Audit log
  auditEntries() {
    return this.page.getByTestId('audit-entry');
  }

  exportLink() {
    return this.page.getByRole('link', { name: 'Export CSV' });
  }
}
