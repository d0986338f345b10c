import type { Page } from 'playwright-core';

export type DeveloperTab =
  'Overview' | 'Docs' | 'SDKs' | 'API Test' | 'Examples' | 'Services' | 'Analytics' | 'Keys' | 'Team';

/** The developer portal (/developer): header badges, nine tabs and what each tab holds. */
export class DeveloperPage {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string, tab?: string) {
    await this.page.goto(`${baseUrl}/developer${tab ? `?tab=${tab}` : ''}`);
    await this.app().waitFor();
  }

  app() {
    return this.page.getByTestId('developer-app');
  }

  statusBadge() {
    return this.page.getByTestId('status-badge');
  }

  tab(name: DeveloperTab) {
    return this.page.getByRole('tablist', { name: 'Developer portal sections' }).getByRole('tab', { name });
  }

  async openTab(name: DeveloperTab) {
    await this.tab(name).click();
    // The next tab's code may still be loading: the current tab stays until it is ready.
    await this.tab(name).and(this.page.locator('[aria-selected="true"]')).waitFor();
  }

  panel() {
    return this.page.getByRole('tabpanel').first();
  }

  loadError() {
    return this.panel().getByTestId('load-error');
  }

  // --- Overview
  stat(name: 'personas' | 'languages' | 'uptime' | 'api-calls') {
    return this.page.getByTestId(`stat-${name}`);
  }

  overviewPersonas() {
    return this.page.getByTestId('overview-personas').getByRole('listitem');
  }

  africanLanguages() {
    return this.page.getByTestId('african-languages').getByRole('listitem');
  }

  // --- Docs
  docOperations() {
    return this.page.getByTestId('doc-operation');
  }

  docOperation(id: string) {
    return this.page.locator(`[data-testid="doc-operation"][data-operation="${id}"]`);
  }

  // --- SDKs
  sdkCard(id: string) {
    return this.page.getByTestId(`sdk-${id}`);
  }

  installButton(id: string) {
    return this.page.getByTestId(`install-${id}`);
  }

  sdkDetails() {
    return this.page.getByTestId('sdk-details');
  }

  // --- API Test
  endpoint() {
    return this.panel().getByLabel('Endpoint');
  }

  apiKeyField() {
    return this.panel().getByLabel('API key');
  }

  bodyField() {
    return this.panel().getByLabel('Request body (JSON)');
  }

  testButton() {
    return this.panel().getByRole('button', { name: /Test Endpoint|Testing…/ });
  }

  async testEndpoint(operation: string, apiKey: string, params: Record<string, string> = {}) {
    await this.endpoint().selectOption(operation);
    for (const [name, value] of Object.entries(params)) {
      await this.panel().getByLabel(`Path parameter ${name}`).fill(value);
    }
    await this.apiKeyField().fill(apiKey);
    await this.testButton().click();
  }

  testEmpty() {
    return this.page.getByTestId('api-test-empty');
  }

  testStatus() {
    return this.page.getByTestId('api-test-status');
  }

  testBody() {
    return this.page.getByTestId('api-test-body');
  }

  testError() {
    return this.page.getByTestId('api-test-error');
  }

  // --- Examples
  example(id: 'javascript' | 'python' | 'curl') {
    return this.page.getByTestId(`example-${id}`);
  }

  // --- Services
  refreshButton() {
    return this.panel().getByRole('button', { name: /Refresh/ });
  }

  service(name: string) {
    return this.page.getByTestId(`service-${name}`);
  }

  // --- Analytics
  keyFilter() {
    return this.page.getByTestId('analytics-key-filter');
  }

  usageTotal() {
    return this.page.getByTestId('usage-total');
  }

  usageByStatus() {
    return this.page.getByTestId('usage-by-status');
  }

  usageByEndpoint() {
    return this.page.getByTestId('usage-by-endpoint');
  }

  // --- Keys
  keyNameField() {
    return this.panel().getByLabel('Name');
  }

  /** The create form's team choice, offered to a team's owners and admins: 'Team key (shared with <team>)'. */
  teamKeyChoice() {
    return this.panel().getByRole('checkbox', { name: /^Team key \(shared with / });
  }

  async createKey(name: string, options: { expires?: string; scopes?: string[]; team?: boolean } = {}) {
    await this.keyNameField().fill(name);
    if (options.team) await this.teamKeyChoice().check();
    if (options.expires) await this.panel().getByLabel('Expires').selectOption({ label: options.expires });
    if (options.scopes) {
      for (const scope of ['chat', 'voice', 'analytics']) {
        const box = this.panel().getByRole('checkbox', { name: new RegExp(`^${scope} —`) });
        if (options.scopes.includes(scope)) await box.check();
        else await box.uncheck();
      }
    }
    await this.panel().getByRole('button', { name: 'Generate New API Key' }).click();
  }

  newKey() {
    return this.page.getByTestId('new-key');
  }

  newKeySecret() {
    return this.page.getByTestId('new-key-secret');
  }

  keys() {
    return this.page.getByTestId('api-key');
  }

  key(name: string) {
    return this.keys().filter({ has: this.page.getByText(name, { exact: true }) });
  }

  noKeys() {
    return this.page.getByTestId('no-keys');
  }

  revokeDialog(name: string) {
    return this.page.getByRole('dialog', { name: `Revoke “${name}”?` });
  }

  async revokeKey(name: string) {
    await this.page.getByRole('button', { name: `Revoke “${name}”` }).click();
    await this.revokeDialog(name).getByRole('button', { name: 'Revoke key' }).click();
  }

  revokeButton(name: string) {
    return this.page.getByRole('button', { name: `Revoke “${name}”` });
  }

  // --- Team
  teamSummary() {
    return this.page.getByTestId('team-summary');
  }

  teamName() {
    return this.teamSummary().getByRole('heading', { level: 2 });
  }

  teamRole() {
    return this.page.getByTestId('team-role');
  }

  teamPlan() {
    return this.page.getByTestId('team-plan');
  }

  enterpriseNote() {
    return this.page.getByTestId('team-enterprise-note');
  }

  noInvitations() {
    return this.page.getByTestId('no-invitations');
  }

  async createTeam(name: string) {
    await this.panel().getByLabel('Team name').fill(name);
    await this.panel().getByRole('button', { name: 'Create team' }).click();
  }

  members() {
    return this.page.getByTestId('team-member');
  }

  member(username: string) {
    return this.page.locator(`[data-testid="team-member"][data-username="${username}"]`);
  }

  async invite(email: string, role: 'member' | 'admin' = 'member') {
    await this.panel().getByLabel('Email address').fill(email);
    await this.panel().getByLabel('Role', { exact: true }).selectOption(role);
    await this.panel().getByRole('button', { name: 'Invite', exact: true }).click();
  }

  inviteSent() {
    return this.page.getByTestId('invite-sent');
  }

  openInvitation(email: string) {
    return this.page.locator(`[data-testid="team-invitation"][data-email="${email}"]`);
  }

  invitationForMe(teamName: string) {
    return this.page.getByTestId('my-invitation').filter({ has: this.page.getByText(teamName, { exact: true }) });
  }

  async acceptInvitation(teamName: string) {
    await this.page.getByRole('button', { name: `Accept the invitation to “${teamName}”` }).click();
  }

  confirmDialog(title: string) {
    return this.page.getByRole('dialog', { name: title });
  }

  async removeMember(username: string, teamName: string) {
    await this.page.getByRole('button', { name: `Remove ${username} from the team` }).click();
    await this.confirmDialog(`Remove ${username} from “${teamName}”?`)
      .getByRole('button', { name: 'Remove member' })
      .click();
  }
}
