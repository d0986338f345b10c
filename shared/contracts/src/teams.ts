import { AuditEntry, type AuditAction } from './admin';
import { SubscriptionTier } from './auth';
import { z } from './zod';

/**
 * Teams (Enterprise, spec section 6): an organisation whose members share API keys and one plan quota. A person
 * belongs to at most one team. The owner created it (one per team); admins invite, remove members and manage the
 * team's keys; members use the team's keys.
 */
export const TeamRole = z.enum(['owner', 'admin', 'member']).openapi('TeamRole');
export type TeamRole = z.infer<typeof TeamRole>;
/** The roles an invitation or a role change may give: there is only ever one owner. */
export const AssignableTeamRole = z.enum(['admin', 'member'], { error: 'role must be admin or member' });
export type AssignableTeamRole = z.infer<typeof AssignableTeamRole>;

/** Members of one team, invitations included, at most. */
export const MAX_TEAM_SEATS = 100;
/** Days an invitation stays open. */
export const TEAM_INVITATION_DAYS = 14;

export const CreateTeamRequest = z
  .object({
    name: z
      .string({ error: 'name is required' })
      .trim()
      .min(2, 'name must be 2 to 60 characters')
      .max(60, 'name must be 2 to 60 characters')
      .regex(/^[^\p{Cc}]+$/u, 'name must not contain control characters'),
  })
  .openapi('CreateTeamRequest');
export type CreateTeamRequest = z.infer<typeof CreateTeamRequest>;

export const InviteTeamMemberRequest = z
  .object({
    email: z
      .string({ error: 'email is required' })
      .trim()
      .toLowerCase()
      .email('email must be an email address')
      .max(254),
    role: AssignableTeamRole.default('member'),
  })
  .openapi('InviteTeamMemberRequest');
export type InviteTeamMemberRequest = z.infer<typeof InviteTeamMemberRequest>;

export const UpdateTeamMemberRequest = z.object({ role: AssignableTeamRole }).openapi('UpdateTeamMemberRequest');
export type UpdateTeamMemberRequest = z.infer<typeof UpdateTeamMemberRequest>;

export const TeamMember = z
  .object({
    userId: z.string(),
    username: z.string(),
    email: z.string(),
    role: TeamRole,
    joinedAt: z.string().datetime(),
  })
  .openapi('TeamMember');
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamInvitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: AssignableTeamRole,
    invitedBy: z.string(),
    createdAt: z.string().datetime(),
    expiresAt: z.string().datetime(),
  })
  .openapi('TeamInvitation');
export type TeamInvitation = z.infer<typeof TeamInvitation>;

export const Team = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The owner's plan: the plan the team's keys and quota run on. */
    tier: SubscriptionTier,
    createdAt: z.string().datetime(),
  })
  .openapi('Team');
export type Team = z.infer<typeof Team>;

/** The caller's team; `invitations` (the open ones) only for owners and admins, else empty. */
export const TeamResponse = z
  .object({ team: Team, role: TeamRole, members: z.array(TeamMember), invitations: z.array(TeamInvitation) })
  .openapi('TeamResponse');
export type TeamResponse = z.infer<typeof TeamResponse>;

/** Open invitations addressed to the caller's account email. */
export const MyTeamInvitationsResponse = z
  .object({
    invitations: z.array(
      TeamInvitation.omit({ email: true }).extend({ team: z.object({ id: z.string(), name: z.string() }) }),
    ),
  })
  .openapi('MyTeamInvitationsResponse');
export type MyTeamInvitationsResponse = z.infer<typeof MyTeamInvitationsResponse>;

/**
 * The audit actions a team's owner and admins read about their team: who joined, left, was invited, removed or given
 * another role, the team's seats, its single sign-on and the team keys created.
 */
export const TEAM_AUDIT_ACTIONS = [
  'team.invitation_sent',
  'team.invitation_revoked',
  'team.member_joined',
  'team.member_removed',
  'team.member_left',
  'team.role_changed',
  'team.seats_changed',
  'team.invitation_declined',
  'sso.configured',
  'sso.removed',
  'apikey.created',
] as const satisfies readonly AuditAction[];
export const TeamAuditAction = z.enum(TEAM_AUDIT_ACTIONS, {
  error: `must be one of ${TEAM_AUDIT_ACTIONS.join(', ')}`,
});
export type TeamAuditAction = z.infer<typeof TeamAuditAction>;

/** The most entries one page of a team's audit log holds. */
export const TEAM_AUDIT_MAX_PAGE = 100;

const IsoTime = z.iso.datetime({ error: 'must be an ISO 8601 date-time', offset: true });
/** GET /api/developer/team/audit: newest first, a page at a time, within a window (default the last 30 days). */
export const TeamAuditQuery = z
  .strictObject({
    action: TeamAuditAction.optional(),
    /** The window (at most 366 days; default the 30 days up to `to`, or up to now). */
    from: IsoTime.optional(),
    to: IsoTime.optional(),
    /** `nextCursor` of the page before. */
    cursor: z.string().max(512).optional(),
    limit: z.coerce
      .number()
      .int()
      .min(1, { error: 'must be at least 1' })
      .max(TEAM_AUDIT_MAX_PAGE, { error: `must be at most ${TEAM_AUDIT_MAX_PAGE}` })
      .default(50),
  })
  .openapi('TeamAuditQuery');
export type TeamAuditQuery = z.infer<typeof TeamAuditQuery>;

/**
 * One entry of a team's audit log: who acted (`actorId`), whom it concerned (`targetId`: an account id, `email:<address>`
 * for an invitation to an address without an account, `team:<id>` for the team's settings) and what else it said
 * (`details`, with `teamId`). The client address stays with the operators' log.
 */
export const TeamAuditEntry = AuditEntry.omit({ clientIp: true, action: true })
  .extend({ action: TeamAuditAction })
  .openapi('TeamAuditEntry');
export type TeamAuditEntry = z.infer<typeof TeamAuditEntry>;
export const TeamAuditPage = z
  .object({
    entries: z.array(TeamAuditEntry),
    nextCursor: z.string().nullable(),
    from: z.string(),
    to: z.string(),
  })
  .openapi('TeamAuditPage');
export type TeamAuditPage = z.infer<typeof TeamAuditPage>;
