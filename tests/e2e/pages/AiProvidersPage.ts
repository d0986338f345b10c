import type { Page } from 'playwright-core';

/**
 * The operators' AI provider settings: the setup page's Connect AI step (/setup, /setup?step=ai) and the console's
 * AI providers section (/admin/providers), with its add/edit dialog and its removal confirmation.
 */
export class AiProvidersPage {
  constructor(private readonly page: Page) {}

  // --- the setup page's Connect AI step
  connectStep() {
    return this.page.getByTestId('connect-ai');
  }

  /** Pastes the settings of a provider in the step, tests the connection, and saves once the test passed. */
  async connectWithKey(settings: { provider: string; baseURL?: string; model?: string; apiKey?: string }) {
    const step = this.connectStep();
    await step.getByRole('radio', { name: /Paste a key from a provider/ }).check();
    const form = step.getByTestId('ai-key-form');
    await form.getByLabel('Provider').selectOption({ label: settings.provider });
    if (settings.apiKey !== undefined) await form.getByLabel(/^API key/).fill(settings.apiKey);
    if (settings.baseURL !== undefined) await form.getByLabel('Server address (base URL)').fill(settings.baseURL);
    if (settings.model !== undefined) await form.getByLabel('Model', { exact: true }).fill(settings.model);
  }

  stepTestButton() {
    return this.connectStep().getByRole('button', { name: 'Test connection' });
  }

  stepSaveButton() {
    return this.connectStep().getByRole('button', { name: 'Save and use it' });
  }

  stepTestResult() {
    return this.connectStep().getByTestId('ai-test-result');
  }

  // --- the console's AI providers section
  async open(baseUrl: string) {
    await this.page.goto(`${baseUrl}/admin/providers`);
    await this.page.getByTestId('admin-app').waitFor();
    await this.list().or(this.page.getByTestId('providers-empty')).first().waitFor();
  }

  section() {
    return this.page
      .getByRole('tablist', { name: 'Operator console sections' })
      .getByRole('tab', { name: 'AI providers' });
  }

  list() {
    return this.page.getByTestId('providers');
  }

  /** The providers in the chain, in order, by name. */
  names() {
    return this.page
      .getByTestId('provider')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-provider')));
  }

  provider(name: string) {
    return this.page.locator(`[data-testid="provider"][data-provider="${name}"]`);
  }

  addButton() {
    return this.page.getByRole('button', { name: 'Add a provider' });
  }

  dialog() {
    return this.page.getByTestId('provider-dialog');
  }

  /** Fills the add dialog: kind, name, address and model (what is given). */
  async fillDialog(settings: { kind: string; name?: string; baseURL?: string; model?: string }) {
    const dialog = this.dialog();
    await dialog.getByLabel('Provider', { exact: true }).selectOption({ label: settings.kind });
    if (settings.name !== undefined) await dialog.getByLabel('Name', { exact: true }).fill(settings.name);
    if (settings.baseURL !== undefined) await dialog.getByLabel(/^Address \(base URL/).fill(settings.baseURL);
    if (settings.model !== undefined) await dialog.getByLabel('Model', { exact: true }).fill(settings.model);
  }

  notice() {
    return this.page.getByTestId('notice');
  }

  confirmDialog(name: string) {
    return this.page.getByRole('dialog', { name: `Remove ${name}?` });
  }
}
