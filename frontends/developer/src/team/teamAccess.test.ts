import type { TeamMember, TeamResponse } from '@kasa/contracts';
import { canChangeRole, canManageTeam, canRemoveMember, canRevokeKey } from './teamAccess';

const member = (userId: string, role: TeamMember['role']): TeamMember => ({
  userId,
  username: userId,
  email: `${userId}@example.com`,
  role,
  joinedAt: '2026-01-01T00:00:00.000Z',
});

const teamAs = (role: TeamResponse['role']): TeamResponse => ({
  team: { id: 't1', name: 'Adinkra Labs', tier: 'enterprise', createdAt: '2026-01-01T00:00:00.000Z' },
  role,
  members: [],
  invitations: [],
});

describe('canManageTeam', () => {
  it('lets owners and admins manage, not members or people outside a team', () => {
    expect([canManageTeam('owner'), canManageTeam('admin'), canManageTeam('member'), canManageTeam(undefined)]).toEqual(
      [true, true, false, false],
    );
  });
});

describe('canRemoveMember', () => {
  it('lets the owner remove admins and members but never the owner or themselves', () => {
    const owner = teamAs('owner');
    expect(canRemoveMember(owner, 'o', member('a', 'admin'))).toBe(true);
    expect(canRemoveMember(owner, 'o', member('m', 'member'))).toBe(true);
    expect(canRemoveMember(owner, 'o', member('o', 'owner'))).toBe(false);
  });

  it('lets an admin remove members only, and a member nobody', () => {
    expect(canRemoveMember(teamAs('admin'), 'a', member('m', 'member'))).toBe(true);
    expect(canRemoveMember(teamAs('admin'), 'a', member('b', 'admin'))).toBe(false);
    expect(canRemoveMember(teamAs('admin'), 'a', member('a', 'admin'))).toBe(false);
    expect(canRemoveMember(teamAs('member'), 'm', member('n', 'member'))).toBe(false);
  });
});

describe('canChangeRole', () => {
  it('is for the owner, on anyone but the owner', () => {
    expect(canChangeRole(teamAs('owner'), member('m', 'member'))).toBe(true);
    expect(canChangeRole(teamAs('owner'), member('o', 'owner'))).toBe(false);
    expect(canChangeRole(teamAs('admin'), member('m', 'member'))).toBe(false);
  });
});

describe('canRevokeKey', () => {
  it('offers Revoke on personal keys whatever the team', () => {
    expect(canRevokeKey({ teamId: null }, undefined)).toBe(true);
    expect(canRevokeKey({ teamId: null }, teamAs('member'))).toBe(true);
  });

  it('offers Revoke on the team’s keys to owners and admins only', () => {
    expect(canRevokeKey({ teamId: 't1' }, teamAs('owner'))).toBe(true);
    expect(canRevokeKey({ teamId: 't1' }, teamAs('admin'))).toBe(true);
    expect(canRevokeKey({ teamId: 't1' }, teamAs('member'))).toBe(false);
  });

  it('offers none on a team key while the team is unknown or another one', () => {
    expect(canRevokeKey({ teamId: 't1' }, undefined)).toBe(false);
    expect(canRevokeKey({ teamId: 't1' }, null)).toBe(false);
    expect(canRevokeKey({ teamId: 't2' }, teamAs('owner'))).toBe(false);
  });
});
