import { randomUUID } from 'node:crypto';
import { connectDatabase, createLogger } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { DeveloperPage } from './pages/DeveloperPage';

// The auth database under a known name, so that the test can put the owner on the Enterprise plan (there is no
// payment flow for Enterprise: it goes through sales).
const authDbName = `kasa_auth_team_${randomUUID().slice(0, 8)}`;
const logger = createLogger({ service: 'developer-team-e2e', version: 'test', level: 'silent' });

let platform: RunningPlatform;
let browser: Browser;
let authDb: Connection;
const contexts = new TestContexts();

beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform({ AUTH_DB_NAME: authDbName }), launchBrowser()]);
  authDb = await connectDatabase({ url: process.env.MONGO_URL!, dbName: authDbName, logger, maxAttempts: 3 });
}, 120_000);

afterAll(async () => {
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await browser?.close();
  await platform?.stop();
});

afterEach(() => contexts.closeAll());

async function openPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
  return contexts.newPage(browser, { viewport });
}

interface Person {
  username: string;
  email: string;
}

/** Signs a new person up (the app then opens /chat). */
async function signUp(page: Page, prefix: string): Promise<Person> {
  const id = randomUUID().slice(0, 8);
  const person = { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com` };
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signUp({ ...person, password: 'adinkra-team' });
  await page.waitForURL(`${platform.baseUrl}/chat`);
  return person;
}

/** The status of GET /api/personas called with an API key. */
async function personasStatusWith(key: string): Promise<number> {
  const res = await fetch(`${platform.baseUrl}/api/personas`, { headers: { authorization: `Bearer ${key}` } });
  await res.body?.cancel();
  return res.status;
}

async function auditOf(page: Page) {
  await page.waitForLoadState('networkidle');
  const violations = await seriousAxeViolations(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  return { violations, overflow };
}

describe('team management in the developer portal', () => {
  it('lets an Enterprise owner build a team whose member uses its keys, and remove them again', async () => {
    const ownerPage = await openPage();
    const memberPage = await openPage({ width: 375, height: 812 });
    const owner = await signUp(ownerPage, 'kofi');
    const member = await signUp(memberPage, 'esi');
    const ownerPortal = new DeveloperPage(ownerPage);
    const memberPortal = new DeveloperPage(memberPage);

    // The member is on Free: no team to create, a pointer to the plans instead, and no invitations yet.
    await memberPortal.open(platform.baseUrl, 'team');
    await memberPortal.enterpriseNote().getByText('part of the Enterprise plan').waitFor();
    expect(await memberPortal.enterpriseNote().innerText()).toContain('You are on the Free plan.');
    expect(await memberPortal.panel().getByRole('button', { name: 'Create team' }).count()).toBe(0);
    await memberPortal.noInvitations().getByText(member.email).waitFor();
    expect(await auditOf(memberPage)).toEqual({ violations: [], overflow: 0 });

    // The owner goes Enterprise; the portal reads the plan on a fresh load.
    const updated = await authDb
      .collection('users')
      .updateOne({ email: owner.email }, { $set: { subscriptionTier: 'enterprise' } });
    expect(updated.modifiedCount).toBe(1);
    await ownerPortal.open(platform.baseUrl, 'team');
    expect(ownerPage.url()).toBe(`${platform.baseUrl}/developer?tab=team`);
    expect(await ownerPortal.enterpriseNote().count()).toBe(0);
    const teamName = `Adinkra Labs ${randomUUID().slice(0, 4)}`;
    await ownerPortal.createTeam(teamName);
    await ownerPortal.teamName().getByText(teamName, { exact: true }).waitFor();
    expect(await ownerPortal.teamRole().innerText()).toBe('Owner');
    expect(await ownerPortal.teamPlan().innerText()).toBe('Enterprise');
    expect(await ownerPortal.members().count()).toBe(1);
    await ownerPortal.panel().getByRole('button', { name: 'Delete team' }).waitFor();
    expect(await ownerPortal.panel().getByRole('button', { name: 'Leave team' }).count()).toBe(0);

    // Invitations: the API's validation and conflict messages, then a real one.
    await ownerPortal.invite('not-an-address');
    await ownerPortal
      .panel()
      .getByRole('alert')
      .getByText('Could not invite: 400: email must be an email address')
      .waitFor();
    await ownerPortal.invite(owner.email);
    await ownerPortal
      .panel()
      .getByRole('alert')
      .getByText(`Could not invite: 409: ${owner.email} is already a member of this team.`)
      .waitFor();
    await ownerPortal.invite(member.email);
    await ownerPortal.inviteSent().getByText(`Invited ${member.email}.`).waitFor();
    await ownerPortal.openInvitation(member.email).waitFor();
    expect(await ownerPortal.openInvitation(member.email).innerText()).toContain(owner.username);
    expect(await auditOf(ownerPage)).toEqual({ violations: [], overflow: 0 });

    // The member finds the invitation, accepts it and sees the team, as a plain member.
    await memberPage.reload();
    await memberPortal.invitationForMe(teamName).waitFor();
    expect(await memberPortal.invitationForMe(teamName).innerText()).toContain(owner.username);
    await memberPortal.acceptInvitation(teamName);
    await memberPortal.teamName().getByText(teamName, { exact: true }).waitFor();
    expect(await memberPortal.teamRole().innerText()).toBe('Member');
    expect(await memberPortal.teamPlan().innerText()).toBe('Enterprise');
    await memberPortal.member(owner.username).waitFor();
    await memberPortal.member(member.username).getByText('You', { exact: true }).waitFor();
    await memberPortal.panel().getByRole('button', { name: 'Leave team' }).waitFor();
    expect(
      await memberPortal
        .panel()
        .getByRole('button', { name: /^Remove / })
        .count(),
    ).toBe(0);
    expect(await memberPortal.panel().getByLabel('Email address').count()).toBe(0);
    expect(await auditOf(memberPage)).toEqual({ violations: [], overflow: 0 });

    // The owner sees the member join and the invitation close, then creates a team key.
    await ownerPage.reload();
    await ownerPortal.member(member.username).waitFor();
    expect(await ownerPortal.member(member.username).getAttribute('data-role')).toBe('member');
    expect(await ownerPortal.openInvitation(member.email).count()).toBe(0);
    await ownerPortal.openTab('Keys');
    await ownerPortal.teamKeyChoice().waitFor();
    await ownerPortal.panel().getByText(`Team key (shared with ${teamName})`).waitFor();
    await ownerPortal.createKey('Shared bot', { team: true });
    await ownerPortal.newKey().waitFor();
    const secret = (await ownerPortal.newKeySecret().innerText()).trim();
    expect(await personasStatusWith(secret)).toBe(200);
    await ownerPortal.newKey().getByRole('button', { name: 'I have copied it' }).click();
    await ownerPortal.key('Shared bot').getByTestId('team-key-badge').waitFor();
    await ownerPortal.revokeButton('Shared bot').waitFor();

    // The member sees the team key, marked Team, without Revoke, and cannot create team keys.
    await memberPortal.open(platform.baseUrl, 'keys');
    await memberPortal.panel().getByText('Keys marked Team are your team’s').waitFor();
    await memberPortal.key('Shared bot').getByTestId('team-key-badge').getByText('Team', { exact: true }).waitFor();
    expect(await memberPortal.key('Shared bot').getAttribute('data-state')).toBe('active');
    expect(await memberPortal.revokeButton('Shared bot').count()).toBe(0);
    expect(await memberPortal.teamKeyChoice().count()).toBe(0);
    expect(await auditOf(memberPage)).toEqual({ violations: [], overflow: 0 });

    // The owner removes the member after a confirmation; the member loses the team and its key.
    await ownerPortal.openTab('Team');
    await ownerPortal
      .panel()
      .getByRole('button', { name: `Remove ${member.username} from the team` })
      .click();
    const removeDialog = ownerPortal.confirmDialog(`Remove ${member.username} from “${teamName}”?`);
    await removeDialog.getByRole('button', { name: 'Cancel' }).click();
    await removeDialog.waitFor({ state: 'detached' });
    expect(await ownerPortal.members().count()).toBe(2);
    await ownerPortal.removeMember(member.username, teamName);
    await ownerPortal.member(member.username).waitFor({ state: 'detached' });
    expect(await ownerPortal.members().count()).toBe(1);

    await memberPage.reload();
    await memberPortal.noKeys().waitFor();
    await memberPortal.openTab('Team');
    await memberPortal.enterpriseNote().waitFor();
    await memberPortal.enterpriseNote().getByRole('link', { name: 'See the plans on the Pricing page' }).click();
    await memberPage.waitForURL(`${platform.baseUrl}/pricing`);

    // Deleting the team is confirmed with what it does to the team's keys, and revokes them.
    await ownerPortal.panel().getByRole('button', { name: 'Delete team' }).click();
    const deleteDialog = ownerPortal.confirmDialog(`Delete “${teamName}”?`);
    expect(await deleteDialog.innerText()).toContain('Every team key (1 active) is revoked at once');
    await deleteDialog.getByRole('button', { name: 'Delete team' }).click();
    await ownerPortal.panel().getByLabel('Team name').waitFor();
    const deletedAt = Date.now();
    while ((await personasStatusWith(secret)) !== 401) {
      if (Date.now() - deletedAt > 10_000) throw new Error('the deleted team’s key still works after 10 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    // The team's keys went with it: the owner's list no longer shows them, nor offers team keys.
    await ownerPortal.openTab('Keys');
    await ownerPortal.noKeys().waitFor();
    expect(await ownerPortal.key('Shared bot').count()).toBe(0);
    expect(await ownerPortal.teamKeyChoice().count()).toBe(0);
  }, 180_000);
});
