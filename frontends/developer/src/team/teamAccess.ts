import type { ApiKey, TeamMember, TeamResponse, TeamRole } from '@kasa/contracts';
import type { PanelsMessageId } from '../i18n/panels/usePanelsT';

// Who may do what in a team, as the auth service enforces it (services/auth/README.md, "Teams (Enterprise)").
// The portal only hides what would be refused; the server still decides.

/** Each role's name, by message id. */
export const ROLE_TEXT: Record<TeamRole, PanelsMessageId> = {
  owner: 'team.role.owner',
  admin: 'team.role.admin',
  member: 'team.role.member',
};

/** Owners and admins invite people, revoke invitations and create and revoke the team's keys. */
export function canManageTeam(role: TeamRole | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/** The owner removes anyone but themselves; an admin removes members. Leaving yourself is a separate action. */
export function canRemoveMember(team: Pick<TeamResponse, 'role'>, me: string | undefined, member: TeamMember): boolean {
  if (member.userId === me || member.role === 'owner') return false;
  return team.role === 'owner' || (team.role === 'admin' && member.role === 'member');
}

/** Only the owner changes roles, and never their own. */
export function canChangeRole(team: Pick<TeamResponse, 'role'>, member: TeamMember): boolean {
  return team.role === 'owner' && member.role !== 'owner';
}

/**
 * Whether to offer Revoke on a key: always on a personal key; on a team key only to the team's owners and admins.
 * `team` is undefined while the caller's team is not known yet (or could not be read): a team key then shows no
 * Revoke rather than one that may be refused.
 */
export function canRevokeKey(key: Pick<ApiKey, 'teamId'>, team: TeamResponse | null | undefined): boolean {
  if (!key.teamId) return true;
  if (!team || team.team.id !== key.teamId) return false;
  return canManageTeam(team.role);
}
