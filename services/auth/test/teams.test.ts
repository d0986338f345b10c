import {
  type ApiKey,
  type AuthResponse,
  type CreateApiKeyResponse,
  type KasaEvent,
  type MyTeamInvitationsResponse,
  type TeamInvitation,
  type TeamResponse,
  type VerifiedApiKey,
} from '@kasa/contracts';
import { EventBus, connectDatabase, createLogger, createMongoProcessedEventStore } from '@kasa/service-kit';
import { eventually, identityHeaders } from '@kasa/test-kit';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { apiKeyModel } from '../src/apiKeys/apiKeyModel';
import type { AuthComponents } from '../src/authComponents';
import { teamInvitationModel, teamModel } from '../src/teams/teamModel';
import { userModel } from '../src/users/userModel';
import { createTestAuthApp } from './authApp';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ service: 'auth-teams-test', version: 'test', level: 'silent' });
const TEAM = '/api/developer/team';
const MY_INVITATIONS = '/api/developer/invitations';
const KEYS = '/api/developer/keys';
const VERIFY = '/internal/api-keys/verify';

let db: Connection;
let observerDb: Connection;
let bus: EventBus;
let observer: EventBus;
let app: Express;
let components: AuthComponents;
const revocations: Array<KasaEvent<'auth.apikey.revoked'>> = [];
const creations: Array<KasaEvent<'auth.apikey.created'>> = [];

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
}

async function person(tier: 'free' | 'pro' | 'enterprise' = 'free'): Promise<Person> {
  const id = randomUUID().slice(0, 8);
  const email = `team.${id}@example.com`;
  const res = await request(app)
    .post('/api/auth/register')
    .send({ username: `team_${id}`, email, password: 'akwaaba-123' });
  expect(res.status).toBe(201);
  const { user } = res.body as AuthResponse;
  if (tier !== 'free') await userModel(db).updateOne({ _id: user.id }, { subscriptionTier: tier });
  return {
    id: user.id,
    email,
    headers: identityHeaders({ userId: user.id, username: user.username, tier }),
  };
}

async function createTeam(owner: Person, name = 'Accra Labs'): Promise<TeamResponse> {
  const res = await request(app).post(TEAM).set(owner.headers).send({ name });
  expect(res.status).toBe(201);
  return res.body as TeamResponse;
}

async function invite(by: Person, email: string, role: 'admin' | 'member' = 'member'): Promise<TeamInvitation> {
  const res = await request(app).post(`${TEAM}/invitations`).set(by.headers).send({ email, role });
  expect(res.status).toBe(201);
  return res.body as TeamInvitation;
}

async function join(invitee: Person, invitationId: string): Promise<TeamResponse> {
  const res = await request(app).post(`${MY_INVITATIONS}/${invitationId}/accept`).set(invitee.headers);
  expect(res.status).toBe(200);
  return res.body as TeamResponse;
}

/** An Enterprise owner with an admin and a member who joined by invitation. */
async function teamOfThree() {
  const owner = await person('enterprise');
  const admin = await person();
  const member = await person();
  await createTeam(owner);
  await join(admin, (await invite(owner, admin.email, 'admin')).id);
  await join(member, (await invite(admin, member.email)).id);
  return { owner, admin, member };
}

beforeAll(async () => {
  const url = process.env.MONGO_URL!;
  db = await connectDatabase({ url, dbName: `kasa_auth_teams_test_${process.pid}`, logger, maxAttempts: 3 });
  observerDb = await connectDatabase({ url, dbName: `kasa_auth_teams_obs_${process.pid}`, logger, maxAttempts: 3 });
  bus = new EventBus({ url: AMQP_URL, source: 'kasa/auth', logger });
  observer = new EventBus({
    url: AMQP_URL,
    source: 'kasa/auth-teams-test',
    logger,
    consumerName: `auth-teams-test-${randomUUID().slice(0, 8)}`,
    processedEvents: createMongoProcessedEventStore(observerDb),
  });
  observer.subscribeBroadcast('auth.apikey.created', async (event) => {
    creations.push(event);
  });
  observer.subscribeBroadcast('auth.apikey.revoked', async (event) => {
    revocations.push(event);
  });
  await Promise.all([bus.start(), observer.start()]);
  await Promise.all([
    userModel(db).init(),
    apiKeyModel(db).init(),
    teamModel(db).init(),
    teamInvitationModel(db).init(),
  ]);
  ({ app, auth: components } = createTestAuthApp({ db, bus, logger, name: 'auth-teams-test' }));
});

afterAll(async () => {
  await components?.apiKeyUsage.close();
  await Promise.all([bus?.close(), observer?.close()]);
  await db?.dropDatabase();
  await observerDb?.dropDatabase();
  await Promise.all([db?.close(), observerDb?.close()]);
});

describe('creating a team', () => {
  it('is part of the Enterprise plan: Free and Pro get a 403 naming it', async () => {
    for (const tier of ['free', 'pro'] as const) {
      const res = await request(app)
        .post(TEAM)
        .set((await person(tier)).headers)
        .send({ name: 'Kumasi Co' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Enterprise plan/) });
    }
  });

  it('makes the Enterprise creator its owner, on their plan', async () => {
    const owner = await person('enterprise');
    const body = await createTeam(owner, '  Accra Labs  ');
    expect(body).toEqual({
      team: {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Accra Labs',
        tier: 'enterprise',
        createdAt: expect.any(String),
      },
      role: 'owner',
      members: [
        {
          userId: owner.id,
          username: expect.any(String),
          email: owner.email,
          role: 'owner',
          joinedAt: expect.any(String),
        },
      ],
      invitations: [],
    });
    expect((await request(app).get(TEAM).set(owner.headers)).body).toEqual(body);
  });

  it('allows one team per person (409) and validates the name (400)', async () => {
    const owner = await person('enterprise');
    await createTeam(owner);
    const again = await request(app).post(TEAM).set(owner.headers).send({ name: 'Second' });
    expect(again.status).toBe(409);
    const bad = await request(app)
      .post(TEAM)
      .set((await person('enterprise')).headers)
      .send({ name: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'name' })]));
  });

  it('answers 404 to someone without a team and 401 without an identity', async () => {
    expect(
      (
        await request(app)
          .get(TEAM)
          .set((await person()).headers)
      ).status,
    ).toBe(404);
    expect((await request(app).get(TEAM)).status).toBe(401);
  });
});

describe('invitations', () => {
  it('reach the invitee by their account email, who joins with the invited role', async () => {
    const owner = await person('enterprise');
    const invitee = await person();
    await createTeam(owner);
    const invitation = await invite(owner, invitee.email.toUpperCase(), 'admin');
    expect(invitation).toMatchObject({ email: invitee.email, role: 'admin' });

    const mine = (await request(app).get(MY_INVITATIONS).set(invitee.headers)).body as MyTeamInvitationsResponse;
    expect(mine.invitations).toEqual([
      expect.objectContaining({
        id: invitation.id,
        role: 'admin',
        team: { id: expect.any(String), name: 'Accra Labs' },
      }),
    ]);
    const joined = await join(invitee, invitation.id);
    expect(joined.role).toBe('admin');
    expect(joined.members.map((m) => m.userId).sort()).toEqual([owner.id, invitee.id].sort());
    expect((await request(app).get(MY_INVITATIONS).set(invitee.headers)).body).toEqual({ invitations: [] });
  });

  it('cannot be accepted by anyone else (404), nor twice, nor after being revoked', async () => {
    const owner = await person('enterprise');
    const invitee = await person();
    const stranger = await person();
    await createTeam(owner);
    const invitation = await invite(owner, invitee.email);
    expect((await request(app).post(`${MY_INVITATIONS}/${invitation.id}/accept`).set(stranger.headers)).status).toBe(
      404,
    );
    expect((await request(app).post(`${MY_INVITATIONS}/not-an-id/accept`).set(invitee.headers)).status).toBe(404);

    expect((await request(app).delete(`${TEAM}/invitations/${invitation.id}`).set(owner.headers)).status).toBe(204);
    expect((await request(app).post(`${MY_INVITATIONS}/${invitation.id}/accept`).set(invitee.headers)).status).toBe(
      404,
    );
  });

  it('are only sent by owners and admins, and not to members', async () => {
    const { owner, member } = await teamOfThree();
    const byMember = await request(app)
      .post(`${TEAM}/invitations`)
      .set(member.headers)
      .send({ email: 'x@example.com' });
    expect(byMember.status).toBe(403);
    const toMember = await request(app).post(`${TEAM}/invitations`).set(owner.headers).send({ email: member.email });
    expect(toMember.status).toBe(409);
    const badRole = await request(app)
      .post(`${TEAM}/invitations`)
      .set(owner.headers)
      .send({ email: 'a@example.com', role: 'owner' });
    expect(badRole.status).toBe(400);
  });

  it('cannot pull someone out of the team they are in', async () => {
    const { member } = await teamOfThree();
    const otherOwner = await person('enterprise');
    await createTeam(otherOwner, 'Lagos Studio');
    const invitation = await invite(otherOwner, member.email);
    const res = await request(app).post(`${MY_INVITATIONS}/${invitation.id}/accept`).set(member.headers);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already in a team/);
  });

  it('can be declined', async () => {
    const owner = await person('enterprise');
    const invitee = await person();
    await createTeam(owner);
    const invitation = await invite(owner, invitee.email);
    expect((await request(app).delete(`${MY_INVITATIONS}/${invitation.id}`).set(invitee.headers)).status).toBe(204);
    expect((await request(app).post(`${MY_INVITATIONS}/${invitation.id}/accept`).set(invitee.headers)).status).toBe(
      404,
    );
    expect(((await request(app).get(TEAM).set(owner.headers)).body as TeamResponse).invitations).toEqual([]);
  });
});

describe('roles and membership', () => {
  it('lets only the owner change roles, never their own', async () => {
    const { owner, admin, member } = await teamOfThree();
    expect(
      (await request(app).patch(`${TEAM}/members/${member.id}`).set(admin.headers).send({ role: 'admin' })).status,
    ).toBe(403);
    const promoted = await request(app)
      .patch(`${TEAM}/members/${member.id}`)
      .set(owner.headers)
      .send({ role: 'admin' });
    expect(promoted.status).toBe(200);
    expect((promoted.body as TeamResponse).members.find((m) => m.userId === member.id)?.role).toBe('admin');
    expect(
      (await request(app).patch(`${TEAM}/members/${owner.id}`).set(owner.headers).send({ role: 'member' })).status,
    ).toBe(409);
    expect(
      (await request(app).patch(`${TEAM}/members/${randomUUID()}`).set(owner.headers).send({ role: 'member' })).status,
    ).toBe(404);
  });

  it('lets admins remove members but not admins, members leave, and the owner not leave', async () => {
    const { owner, admin, member } = await teamOfThree();
    expect((await request(app).delete(`${TEAM}/members/${admin.id}`).set(member.headers)).status).toBe(403);
    expect((await request(app).delete(`${TEAM}/members/${owner.id}`).set(owner.headers)).status).toBe(409);
    expect((await request(app).delete(`${TEAM}/members/${member.id}`).set(admin.headers)).status).toBe(204);
    expect((await request(app).get(TEAM).set(member.headers)).status).toBe(404);
    expect((await request(app).delete(`${TEAM}/members/${admin.id}`).set(admin.headers)).status).toBe(204);
    const left = (await request(app).get(TEAM).set(owner.headers)).body as TeamResponse;
    expect(left.members.map((m) => m.userId)).toEqual([owner.id]);
  });

  it('hides the open invitations from plain members', async () => {
    const { owner, member } = await teamOfThree();
    await invite(owner, 'someone.new@example.com');
    expect(((await request(app).get(TEAM).set(owner.headers)).body as TeamResponse).invitations).toHaveLength(1);
    expect(((await request(app).get(TEAM).set(member.headers)).body as TeamResponse).invitations).toEqual([]);
  });
});

describe('team keys', () => {
  it('are created by owners and admins, seen by every member, and run on the team’s plan and quota', async () => {
    const { admin, member } = await teamOfThree();
    const created = await request(app).post(KEYS).set(admin.headers).send({ name: 'Team bot', team: true });
    expect(created.status).toBe(201);
    const { secret, key } = created.body as CreateApiKeyResponse;
    expect(key.teamId).toEqual(expect.any(String));
    // Announced as the team's key, created by the admin (status keeps who owns which key from this event).
    const announced = await eventually(() => creations.find((e) => e.data.keyId === key.id));
    expect(announced.data).toMatchObject({ userId: admin.id, teamId: key.teamId });

    expect((await request(app).post(KEYS).set(member.headers).send({ name: 'Mine', team: true })).status).toBe(403);
    const seen = (await request(app).get(KEYS).set(member.headers)).body as { keys: ApiKey[] };
    expect(seen.keys.map((k) => k.id)).toContain(key.id);

    // The admin is on Free personally; the key acts as the team, on the team owner's Enterprise plan.
    const verified = await request(app).post(VERIFY).send({ key: secret });
    expect(verified.body).toMatchObject({ userId: `team:${key.teamId}`, tier: 'enterprise', teamId: key.teamId });
  });

  it('act as the team, never as the person who created them, and keep the team’s plan when that person leaves', async () => {
    const { owner, admin } = await teamOfThree();
    const { secret, key } = (await request(app).post(KEYS).set(admin.headers).send({ name: 'Team bot', team: true }))
      .body as CreateApiKeyResponse;
    const team = (await request(app).get(TEAM).set(owner.headers)).body as TeamResponse;
    const verify = async () => (await request(app).post(VERIFY).send({ key: secret })).body as VerifiedApiKey;
    expect(await verify()).toEqual({
      userId: `team:${key.teamId}`,
      username: team.team.name,
      tier: 'enterprise',
      planHolderId: owner.id,
      keyId: key.id,
      scopes: key.scopes,
      expiresAt: null,
      teamId: key.teamId,
    });

    // The creator's own plan changes nothing; they leave, and the key is still the team's, on the team's plan.
    await userModel(db).updateOne({ _id: admin.id }, { subscriptionTier: 'pro' });
    expect((await request(app).delete(`${TEAM}/members/${admin.id}`).set(admin.headers)).status).toBe(204);
    expect(await verify()).toMatchObject({ userId: `team:${key.teamId}`, tier: 'enterprise' });
  });

  it('follow the team’s plan: the owner’s', async () => {
    const { owner, admin } = await teamOfThree();
    const { secret } = (await request(app).post(KEYS).set(admin.headers).send({ name: 'Team bot', team: true }))
      .body as CreateApiKeyResponse;
    await userModel(db).updateOne({ _id: owner.id }, { subscriptionTier: 'free' });
    expect((await request(app).post(VERIFY).send({ key: secret })).body).toMatchObject({ tier: 'free' });
    await userModel(db).updateOne({ _id: owner.id }, { subscriptionTier: 'enterprise' });
    expect((await request(app).post(VERIFY).send({ key: secret })).body).toMatchObject({ tier: 'enterprise' });
  });

  it('are not visible outside the team, and a personal key stays personal', async () => {
    const { owner, member } = await teamOfThree();
    const { key } = (await request(app).post(KEYS).set(owner.headers).send({ name: 'Team', team: true }))
      .body as CreateApiKeyResponse;
    const personal = (await request(app).post(KEYS).set(member.headers).send({ name: 'Personal' }))
      .body as CreateApiKeyResponse;
    const outsider = await person();
    expect(((await request(app).get(KEYS).set(outsider.headers)).body as { keys: ApiKey[] }).keys).toEqual([]);
    expect((await request(app).delete(`${KEYS}/${key.id}`).set(outsider.headers)).status).toBe(404);
    const ownerSees = ((await request(app).get(KEYS).set(owner.headers)).body as { keys: ApiKey[] }).keys.map(
      (k) => k.id,
    );
    expect(ownerSees).toContain(key.id);
    expect(ownerSees).not.toContain(personal.key.id);
  });

  it('are revoked by admins (members get 403) and all revoked when the team is deleted', async () => {
    const { owner, admin, member } = await teamOfThree();
    const first = (await request(app).post(KEYS).set(owner.headers).send({ name: 'One', team: true }))
      .body as CreateApiKeyResponse;
    const second = (await request(app).post(KEYS).set(admin.headers).send({ name: 'Two', team: true }))
      .body as CreateApiKeyResponse;
    expect((await request(app).delete(`${KEYS}/${first.key.id}`).set(member.headers)).status).toBe(403);
    expect((await request(app).delete(`${KEYS}/${first.key.id}`).set(admin.headers)).status).toBe(204);
    expect((await request(app).post(VERIFY).send({ key: first.secret })).status).toBe(401);

    expect((await request(app).delete(TEAM).set(admin.headers)).status).toBe(403);
    expect((await request(app).delete(TEAM).set(owner.headers)).status).toBe(204);
    const refused = await request(app).post(VERIFY).send({ key: second.secret });
    expect(refused.status).toBe(401);
    expect(refused.body.details).toEqual({ reason: 'revoked' });
    await eventually(() => revocations.find((e) => e.data.keyId === second.key.id));
    // Everyone is free to join or create another team.
    for (const p of [owner, admin, member]) expect((await request(app).get(TEAM).set(p.headers)).status).toBe(404);
  });
});
