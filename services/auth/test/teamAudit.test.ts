import {
  type AuditEntry,
  type AuthResponse,
  type EventType,
  type KasaEvent,
  type TeamAuditPage,
  type TeamInvitation,
  type TeamResponse,
} from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger, createMongoProcessedEventStore } from '@kasa/service-kit';
import { eventually, identityHeaders } from '@kasa/test-kit';
import { connect as amqpConnect } from 'amqplib';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { auditEntryOf, type AuditedEvent } from '../src/audit/auditEntries';
import { auditEntryModel } from '../src/audit/auditModel';
import { subscribeAuditLog } from '../src/audit/auditSubscriptions';
import type { AuthComponents } from '../src/authComponents';
import { teamInvitationModel, teamModel } from '../src/teams/teamModel';
import { userModel } from '../src/users/userModel';
import { createTestAuthApp } from './authApp';

/**
 * Team membership in the audit log: each action (invitations sent and revoked, joins, removals and leaving, role and
 * seat changes) published as an event and written once by the audit consumer, also when the event comes twice; and
 * the team's own page of it, GET /api/developer/team/audit, for its owner and admins only.
 */
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-team-audit-test', version: 'test', level: 'silent' });
const TEAM = '/api/developer/team';
const AUDIT = '/api/developer/team/audit';
const MY_INVITATIONS = '/api/developer/invitations';
const CONSUMER = `auth-team-audit-test-${randomUUID().slice(0, 8)}`;
const TEAM_EVENTS = [
  'auth.team.invitation_sent',
  'auth.team.invitation_revoked',
  'auth.team.member_joined',
  'auth.team.member_removed',
  'auth.team.member_role_changed',
  'auth.team.seats_changed',
  'auth.team.invitation_declined',
  'auth.team.deleted',
] as const satisfies readonly EventType[];

let db: Connection;
let observerDb: Connection;
let bus: EventBus;
let auditBus: EventBus;
let observer: EventBus;
let app: Express;
let components: AuthComponents;
/** Every team event the platform published while the tests ran, as published. */
const published: Array<KasaEvent<(typeof TEAM_EVENTS)[number]>> = [];

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
}

async function person(tier: 'free' | 'enterprise' = 'free'): Promise<Person> {
  const id = randomUUID().slice(0, 8);
  const email = `audit.${id}@example.com`;
  const res = await request(app)
    .post('/api/auth/register')
    .send({ username: `audit_${id}`, email, password: 'akwaaba-123' });
  expect(res.status).toBe(201);
  const { user } = res.body as AuthResponse;
  if (tier !== 'free') await userModel(db).updateOne({ _id: user.id }, { subscriptionTier: tier });
  return { id: user.id, email, headers: identityHeaders({ userId: user.id, username: user.username, tier }) };
}

async function createTeam(owner: Person, name = 'Accra Labs'): Promise<string> {
  const res = await request(app).post(TEAM).set(owner.headers).send({ name });
  expect(res.status).toBe(201);
  return (res.body as TeamResponse).team.id;
}

async function invite(by: Person, email: string, role: 'admin' | 'member' = 'member'): Promise<TeamInvitation> {
  const res = await request(app).post(`${TEAM}/invitations`).set(by.headers).send({ email, role });
  expect(res.status).toBe(201);
  return res.body as TeamInvitation;
}

async function join(invitee: Person, invitationId: string): Promise<void> {
  expect((await request(app).post(`${MY_INVITATIONS}/${invitationId}/accept`).set(invitee.headers)).status).toBe(200);
}

/** Every stored entry of a team, newest first, straight from the log. */
async function entriesOf(teamId: string): Promise<AuditEntry[]> {
  const page = await components.audit.page(
    { teamId, from: new Date(Date.now() - 3600_000), to: new Date(Date.now() + 60_000) },
    { limit: 200 },
  );
  return page.entries;
}

/** Waits until the team has `count` entries (the consumer writes them as the events arrive). */
function entriesWhen(teamId: string, count: number, what: string): Promise<AuditEntry[]> {
  return eventually(
    async () => {
      const entries = await entriesOf(teamId);
      return entries.length >= count && entries;
    },
    { timeoutMs: 10_000, what },
  );
}

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_team_audit_test_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({
    url,
    dbName: `kasa_auth_team_audit_obs_${process.pid}`,
    logger,
    maxAttempts: 3,
  });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-team-audit-test',
    logger,
    consumerName: `${CONSUMER}-observer`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  for (const type of TEAM_EVENTS) {
    observer.subscribeBroadcast(type, async (event) => {
      published.push(event);
    });
  }
  await Promise.all([bus.start(), observer.start()]);
  await Promise.all([
    userModel(db).init(),
    teamModel(db).init(),
    teamInvitationModel(db).init(),
    auditEntryModel(db).init(),
  ]);
  ({ app, auth: components } = createTestAuthApp({ db, bus, logger, name: 'auth-team-audit-test' }));
  // The audit consumer, as index.ts runs it: its own durable queue, idempotent by event id.
  auditBus = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth',
    logger,
    consumerName: CONSUMER,
    processedEvents: createMongoProcessedEventStore(db),
  });
  subscribeAuditLog(auditBus, components.audit, logger);
  await auditBus.start();
});

afterAll(async () => {
  await components?.apiKeyUsage.close();
  await Promise.all([bus?.close(), observer?.close(), auditBus?.close()]);
  const connection = await amqpConnect(AMQP_URL);
  const channel = await connection.createChannel();
  await channel.deleteQueue(`kasa.${CONSUMER}`);
  await channel.deleteQueue(`kasa.${CONSUMER}.dlq`);
  await connection.close();
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

describe('team membership in the audit log', () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let teamId: string;
  let entries: AuditEntry[];

  it('records each action once, naming the team, who acted and the person concerned', async () => {
    owner = await person('enterprise');
    admin = await person();
    member = await person();
    teamId = await createTeam(owner);
    const toAdmin = await invite(owner, admin.email, 'admin');
    await join(admin, toAdmin.id);
    const toMember = await invite(admin, member.email);
    // Inviting again renews the same invitation: an invitation sent again, and recorded so.
    await invite(admin, member.email);
    await join(member, toMember.id);
    const nobody = `nobody.${randomUUID().slice(0, 8)}@example.com`;
    const toNobody = await invite(owner, nobody);
    expect((await request(app).delete(`${TEAM}/invitations/${toNobody.id}`).set(owner.headers)).status).toBe(204);
    // Revoking it again changes nothing, and says nothing new.
    expect((await request(app).delete(`${TEAM}/invitations/${toNobody.id}`).set(owner.headers)).status).toBe(204);
    const promote = await request(app).patch(`${TEAM}/members/${member.id}`).set(owner.headers).send({ role: 'admin' });
    expect(promote.status).toBe(200);
    // Giving the role they have is no change.
    expect(
      (await request(app).patch(`${TEAM}/members/${member.id}`).set(owner.headers).send({ role: 'admin' })).status,
    ).toBe(200);
    const leaver = await person();
    await join(leaver, (await invite(owner, leaver.email)).id);
    expect((await request(app).delete(`${TEAM}/members/${leaver.id}`).set(leaver.headers)).status).toBe(204);
    const removal = await request(app).delete(`${TEAM}/members/${admin.id}`).set(owner.headers);
    expect(removal.status).toBe(204);
    // Someone invited says no: once (declining again finds no open invitation).
    const decliner = await person();
    const toDecliner = await invite(owner, decliner.email);
    expect((await request(app).delete(`${MY_INVITATIONS}/${toDecliner.id}`).set(decliner.headers)).status).toBe(204);
    expect((await request(app).delete(`${MY_INVITATIONS}/${toDecliner.id}`).set(decliner.headers)).status).toBe(404);
    // An operator records the owner's Enterprise contract: the team's seats change, and again to another number.
    const operatorActor = { userId: 'operator-1', clientIp: '203.0.113.7' };
    const endsAt = new Date(Date.now() + 365 * 24 * 3600_000);
    await components.operators.grantEnterprise(
      { email: owner.email },
      { seats: 25, endsAt },
      'req-seats-1',
      operatorActor,
    );
    await components.operators.grantEnterprise(
      { email: owner.email },
      { seats: 25, endsAt },
      'req-seats-2',
      operatorActor,
    );
    await components.operators.grantEnterprise(
      { email: owner.email },
      { seats: 40, endsAt },
      'req-seats-3',
      operatorActor,
    );

    const expected: Array<[AuditEntry['action'], actor: string, target: string]> = [
      ['team.invitation_sent', owner.id, admin.id],
      ['team.member_joined', admin.id, admin.id],
      ['team.invitation_sent', admin.id, member.id],
      ['team.invitation_sent', admin.id, member.id],
      ['team.member_joined', member.id, member.id],
      ['team.invitation_sent', owner.id, `email:${nobody}`],
      ['team.invitation_revoked', owner.id, `email:${nobody}`],
      ['team.role_changed', owner.id, member.id],
      ['team.invitation_sent', owner.id, leaver.id],
      ['team.member_joined', leaver.id, leaver.id],
      ['team.member_left', leaver.id, leaver.id],
      ['team.member_removed', owner.id, admin.id],
      ['team.invitation_sent', owner.id, decliner.id],
      ['team.invitation_declined', decliner.id, decliner.id],
      ['team.seats_changed', 'operator-1', owner.id],
      ['team.seats_changed', 'operator-1', owner.id],
    ];
    entries = await entriesWhen(teamId, expected.length, 'every membership entry of the team');
    const seen = entries.map((e) => [e.action, e.actorId, e.targetId]);
    expect(seen.sort()).toEqual(expected.map(([a, b, c]) => [a, b, c]).sort());
    for (const entry of entries) expect(entry.details.teamId).toBe(teamId);
    // One entry per published event, and nothing published twice for one action.
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);

    const byAction = (action: AuditEntry['action']) => entries.filter((e) => e.action === action);
    expect(byAction('team.role_changed')[0]).toMatchObject({
      details: { from: 'member', to: 'admin', email: member.email },
      clientIp: expect.any(String),
      requestId: promote.headers['x-request-id'],
    });
    expect(byAction('team.invitation_sent').filter((e) => e.details.renewed === true)).toHaveLength(1);
    expect(byAction('team.member_removed')[0]!.details).toMatchObject({ role: 'admin', email: admin.email });
    expect(byAction('team.member_joined').map((e) => e.details.via)).toEqual([
      'invitation',
      'invitation',
      'invitation',
    ]);
    expect(byAction('team.seats_changed').map((e) => e.details)).toEqual([
      { teamId, from: 25, to: 40 },
      { teamId, from: null, to: 25 },
    ]);
    expect(byAction('team.seats_changed')[0]).toMatchObject({ clientIp: '203.0.113.7', requestId: 'req-seats-3' });
  });

  it('records a team’s deletion by its owner against the team, with the members it released', async () => {
    const founder = await person('enterprise');
    const colleague = await person();
    const deletedTeam = await createTeam(founder, 'Short-lived Studio');
    await join(colleague, (await invite(founder, colleague.email)).id);
    expect((await request(app).delete(TEAM).set(founder.headers)).status).toBe(204);
    const all = await entriesWhen(deletedTeam, 3, 'the deletion entry');
    expect(all.find((e) => e.action === 'team.deleted')).toMatchObject({
      actorId: founder.id,
      targetId: `team:${deletedTeam}`,
      details: { teamId: deletedTeam, name: 'Short-lived Studio', members: 2 },
    });
  });

  it('adds nothing when an event is delivered again', async () => {
    const ours = await eventually(() => {
      const found = published.filter((e) => e.data.teamId === teamId);
      return found.length >= entries.length && found;
    });
    expect(ours).toHaveLength(entries.length);
    for (const event of ours) await bus.publish(event.type, event.data, { id: event.id, requestId: event.requestId });
    // A fresh event behind the repeated ones: once its entry is there, the queue has reached past them.
    const marker = await bus.publish('auth.team.invitation_revoked', {
      teamId,
      invitationId: randomUUID(),
      email: 'marker@example.com',
      userId: null,
      actor: { userId: owner.id },
      at: new Date().toISOString(),
    });
    const after = await entriesWhen(teamId, entries.length + 1, 'the entry of the event after the repeated ones');
    expect(after.map((e) => e.id).sort()).toEqual([...entries.map((e) => e.id), marker].sort());

    // And the log itself never changes or doubles an entry it holds, whoever asks it to record one again.
    const original = ours[0]!;
    await components.audit.record({
      ...auditEntryOf(original as KasaEvent<AuditedEvent>),
      details: { changed: true },
    });
    expect((await entriesOf(teamId)).find((e) => e.id === original.id)?.details).not.toHaveProperty('changed');
  });

  it('records a join through the team’s single sign-on, by the person joining', async () => {
    const sso = await person();
    await components.teams.joinBySso(sso.id, teamId, 'req-sso');
    const found = await eventually(async () =>
      (await entriesOf(teamId)).find((e) => e.action === 'team.member_joined' && e.targetId === sso.id),
    );
    expect(found).toMatchObject({
      actorId: sso.id,
      requestId: 'req-sso',
      details: { teamId, via: 'sso', role: 'member', email: sso.email },
    });
    const joins = await eventually(() => {
      const seen = published.filter(
        (e) => e.type === 'auth.team.member_joined' && 'userId' in e.data && e.data.userId === sso.id,
      );
      return seen.length > 0 && seen;
    });
    expect(joins).toHaveLength(1);
  });
});

describe('GET /api/developer/team/audit', () => {
  it('shows the owner and admins their team’s entries, newest first, a page at a time, by action', async () => {
    const owner = await person('enterprise');
    const admin = await person();
    const member = await person();
    const teamId = await createTeam(owner);
    await join(admin, (await invite(owner, admin.email, 'admin')).id);
    await join(member, (await invite(admin, member.email)).id);
    await invite(owner, `later.${randomUUID().slice(0, 8)}@example.com`);
    await entriesWhen(teamId, 5, 'the team’s five entries');

    const all = await request(app).get(AUDIT).set(owner.headers);
    expect(all.status).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    const page = all.body as TeamAuditPage;
    expect(page.entries.map((e) => e.action)).toEqual([
      'team.invitation_sent',
      'team.member_joined',
      'team.invitation_sent',
      'team.member_joined',
      'team.invitation_sent',
    ]);
    expect(page.nextCursor).toBeNull();
    expect(Date.parse(page.to) - Date.parse(page.from)).toBe(30 * 24 * 3600_000);
    for (const entry of page.entries) {
      expect(entry.details.teamId).toBe(teamId);
      // The client address stays with the operators' log.
      expect(entry).not.toHaveProperty('clientIp');
    }

    const first = (await request(app).get(`${AUDIT}?limit=2`).set(admin.headers)).body as TeamAuditPage;
    expect(first.entries).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await request(app).get(AUDIT).query({ limit: '10', cursor: first.nextCursor! }).set(admin.headers);
    expect(rest.status).toBe(200);
    expect([...first.entries, ...(rest.body as TeamAuditPage).entries].map((e) => e.id)).toEqual(
      page.entries.map((e) => e.id),
    );

    const joins = (await request(app).get(`${AUDIT}?action=team.member_joined`).set(owner.headers))
      .body as TeamAuditPage;
    expect(joins.entries.map((e) => e.targetId)).toEqual([member.id, admin.id]);
    const lastYear = await request(app)
      .get(AUDIT)
      .query({ from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' })
      .set(owner.headers);
    expect((lastYear.body as TeamAuditPage).entries).toEqual([]);
  });

  it('is 404 to a plain member, to a member of another team, and to someone without a team', async () => {
    const owner = await person('enterprise');
    const member = await person();
    const teamId = await createTeam(owner);
    await join(member, (await invite(owner, member.email)).id);
    const otherOwner = await person('enterprise');
    const otherMember = await person();
    const otherTeam = await createTeam(otherOwner, 'Lagos Studio');
    await join(otherMember, (await invite(otherOwner, otherMember.email)).id);
    await entriesWhen(teamId, 2, 'the first team’s entries');
    await entriesWhen(otherTeam, 2, 'the other team’s entries');

    for (const who of [member, otherMember, await person()]) {
      const res = await request(app).get(AUDIT).set(who.headers);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    // The other team's owner reads their own team only.
    const theirs = (await request(app).get(AUDIT).set(otherOwner.headers)).body as TeamAuditPage;
    expect(theirs.entries.length).toBeGreaterThan(0);
    for (const entry of theirs.entries) expect(entry.details.teamId).toBe(otherTeam);
    expect((await request(app).get(AUDIT)).status).toBe(401);
  });

  it('answers a bad query with a 400 naming the problem', async () => {
    const owner = await person('enterprise');
    await createTeam(owner);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['action=user.suspended', 'action'],
      ['action=everything', 'action'],
      ['actor=someone', 'actor'],
      ['from=yesterday', 'from'],
      ['from=2026-12-08T00:00:00Z&to=2026-12-01T00:00:00Z', 'from'],
      ['from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
      ['cursor=nonsense', 'cursor'],
    ] as const) {
      const res = await request(app).get(`${AUDIT}?${query}`).set(owner.headers);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect({ query, message: res.body.message }).toEqual({ query, message: expect.stringContaining(field) });
    }
  });
});
