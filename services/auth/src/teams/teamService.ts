import {
  MAX_TEAM_SEATS,
  requiredPlan,
  TEAM_INVITATION_DAYS,
  type AssignableTeamRole,
  type CreateTeamRequest,
  type EventActor,
  type EventData,
  type InviteTeamMemberRequest,
  type MyTeamInvitationsResponse,
  type SubscriptionTier,
  type TeamInvitation,
  type TeamResponse,
  type TeamRole,
} from '@kasa/contracts';
import {
  assertPlanAllows,
  ConflictError,
  NotAllowedError,
  NotFoundError,
  PUBLISH_WAIT_MS,
  type EventBus,
  type Logger,
} from '@kasa/service-kit';
import { Types, type Model } from 'mongoose';
import type { UserDocument } from '../users/userModel';
import { toPublicTeam, type TeamDocument, type TeamInvitationDocument, type TeamMemberEntry } from './teamModel';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Attempts of an optimistic update of a team's members before giving up with a 409. */
const MEMBER_UPDATE_ATTEMPTS = 5;
/** The longest a team query may run. */
const QUERY_TIME_LIMIT_MS = 5_000;

/** The events of a team's membership and seats, which the audit log is written from. */
type TeamEventType =
  | 'auth.team.invitation_sent'
  | 'auth.team.invitation_revoked'
  | 'auth.team.invitation_declined'
  | 'auth.team.deleted'
  | 'auth.team.member_joined'
  | 'auth.team.member_removed'
  | 'auth.team.member_role_changed'
  | 'auth.team.seats_changed';

export interface Membership {
  teamId: string;
  role: TeamRole;
  /** The plan the team runs on: its owner's. */
  tier: SubscriptionTier;
}

/** A team as its keys act: the team's name and plan (its owner's). */
export interface TeamIdentity {
  name: string;
  ownerId: string;
  tier: SubscriptionTier;
}

export interface TeamServiceDeps {
  teams: Model<TeamDocument>;
  invitations: Model<TeamInvitationDocument>;
  users: Model<UserDocument>;
  /** Revokes every key of a team that is being deleted (and tells the gateways). */
  revokeTeamKeys: (teamId: string, requestId?: string) => Promise<void>;
  /** The seats the owner's Enterprise contract gives, when it names them (a team never exceeds MAX_TEAM_SEATS). */
  seatsOf?: (ownerId: string) => Promise<number | null>;
  /** Announces membership changes (`auth.team.*`) for the audit log. */
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  now?: () => Date;
}

/** A join by single sign-on refused because every seat of the team is taken. */
export class NoSeatsError extends ConflictError {
  constructor() {
    super('Every seat of this team is taken. Ask its owner for more seats.', { reason: 'no_seats' });
  }
}

const notInTeam = () =>
  new NotFoundError('You are not in a team. Create one (Enterprise plan) or accept an invitation.');

/**
 * Teams of the Enterprise plan. Membership lives twice, on purpose: `users.teamId` (claimed with a conditional
 * update, so a person joins one team only, even when two joins race) and the team's embedded `members` (the list
 * its admins see). Every change writes the user first and undoes that write if the team update fails.
 */
export class TeamService {
  private readonly now: () => Date;

  constructor(private readonly deps: TeamServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The caller's team and role, or null; the tier is the owner's current plan. */
  async membershipOf(userId: string): Promise<Membership | null> {
    const user = await this.deps.users.findById(userId, { teamId: 1 }).lean();
    if (!user?.teamId) return null;
    const team = await this.deps.teams.findById(user.teamId).lean();
    const entry = team?.members.find((m) => m.userId === userId);
    if (!team || !entry) return null;
    return { teamId: team._id.toString(), role: entry.role, tier: await this.tierOf(team) };
  }

  /** What a team's keys act as: its name, its owner and its plan (the owner's), or null when the team is gone. */
  async teamIdentity(teamId: string): Promise<TeamIdentity | null> {
    if (!Types.ObjectId.isValid(teamId)) return null;
    const team = await this.deps.teams.findById(teamId, { name: 1, ownerId: 1 }).lean();
    return team ? { name: team.name, ownerId: team.ownerId, tier: await this.tierOf(team) } : null;
  }

  async create(userId: string, input: CreateTeamRequest): Promise<TeamResponse> {
    const user = await this.deps.users.findById(userId).lean();
    if (!user) throw new NotFoundError('User not found');
    assertPlanAllows(
      user.subscriptionTier,
      'teams',
      'Teams are part of the Enterprise plan. Upgrade to Enterprise to create a team.',
      { requiredPlan: requiredPlan('teams') },
    );
    const teamId = new Types.ObjectId();
    await this.claimSeat(userId, teamId.toString());
    try {
      await this.deps.teams.create({
        _id: teamId,
        name: input.name,
        ownerId: userId,
        members: [{ userId, role: 'owner', joinedAt: this.now() }],
      });
    } catch (err) {
      await this.releaseSeat(userId, teamId.toString());
      throw err;
    }
    return this.view(userId);
  }

  async view(userId: string): Promise<TeamResponse> {
    const membership = await this.membershipOf(userId);
    if (!membership) throw notInTeam();
    const team = await this.deps.teams.findById(membership.teamId).lean();
    if (!team) throw notInTeam();
    const people = await this.deps.users
      .find({ _id: { $in: team.members.map((m) => m.userId) } }, { username: 1, email: 1 })
      .lean();
    const byId = new Map(people.map((p) => [p._id.toString(), p]));
    const members = team.members.flatMap((m) => {
      const person = byId.get(m.userId);
      return person
        ? [
            {
              userId: m.userId,
              username: person.username,
              email: person.email,
              role: m.role,
              joinedAt: m.joinedAt.toISOString(),
            },
          ]
        : [];
    });
    const invitations = canManage(membership.role)
      ? (await this.openInvitationsOf(membership.teamId)).map(toInvitation)
      : [];
    return { team: toPublicTeam(team, membership.tier), role: membership.role, members, invitations };
  }

  async invite(actor: EventActor, input: InviteTeamMemberRequest, requestId?: string): Promise<TeamInvitation> {
    const userId = actor.userId;
    const membership = await this.requireManager(userId, 'invite members');
    const team = await this.deps.teams.findById(membership.teamId).lean();
    if (!team) throw notInTeam();
    const invitee = await this.deps.users.findOne({ email: input.email }, { teamId: 1 }).lean();
    const sent = (invitation: TeamInvitationDocument, renewed: boolean) =>
      this.announce(
        'auth.team.invitation_sent',
        {
          teamId: membership.teamId,
          invitationId: invitation._id.toString(),
          email: invitation.email,
          userId: invitee ? invitee._id.toString() : null,
          role: invitation.role,
          renewed,
          actor,
          at: this.now().toISOString(),
        },
        requestId,
      );
    if (invitee && team.members.some((m) => m.userId === invitee._id.toString())) {
      throw new ConflictError(`${input.email} is already a member of this team.`);
    }
    const open = await this.openInvitationsOf(membership.teamId);
    const existing = open.find((i) => i.email === input.email);
    const inviter = await this.deps.users.findById(userId, { username: 1 }).lean();
    const expiresAt = new Date(this.now().getTime() + TEAM_INVITATION_DAYS * DAY_MS);
    if (existing) {
      // Inviting again renews the invitation (and may change its role) instead of sending a second one.
      const renewed = await this.deps.invitations
        .findOneAndUpdate({ _id: existing._id }, { $set: { role: input.role, expiresAt } }, { new: true })
        .lean();
      if (renewed) {
        await sent(renewed, true);
        return toInvitation(renewed);
      }
    }
    if (team.members.length + open.length >= MAX_TEAM_SEATS) {
      throw new ConflictError(`A team has at most ${MAX_TEAM_SEATS} members and open invitations.`, {
        limit: MAX_TEAM_SEATS,
      });
    }
    const created = await this.deps.invitations.create({
      teamId: membership.teamId,
      email: input.email,
      role: input.role,
      invitedBy: userId,
      invitedByName: inviter?.username ?? 'A team admin',
      expiresAt,
    });
    const invitation = created.toObject();
    await sent(invitation, false);
    return toInvitation(invitation);
  }

  /** Revokes an open invitation; one already closed is left as it is (204 again, and no second audit entry). */
  async revokeInvitation(actor: EventActor, invitationId: string, requestId?: string): Promise<void> {
    const membership = await this.requireManager(actor.userId, 'revoke invitations');
    if (!Types.ObjectId.isValid(invitationId)) throw new NotFoundError('Invitation not found');
    const closed = await this.deps.invitations
      .findOneAndUpdate(
        { _id: invitationId, teamId: membership.teamId, closedAt: null },
        { $set: { closedAt: this.now(), closedReason: 'revoked' } },
      )
      .lean();
    if (!closed) {
      if (!(await this.deps.invitations.exists({ _id: invitationId, teamId: membership.teamId }))) {
        throw new NotFoundError('Invitation not found');
      }
      return;
    }
    const invitee = await this.deps.users.findOne({ email: closed.email }, { _id: 1 }).lean();
    await this.announce(
      'auth.team.invitation_revoked',
      {
        teamId: membership.teamId,
        invitationId: closed._id.toString(),
        email: closed.email,
        userId: invitee ? invitee._id.toString() : null,
        actor,
        at: this.now().toISOString(),
      },
      requestId,
    );
  }

  /** Open invitations addressed to the caller's account email. */
  async invitationsFor(userId: string): Promise<MyTeamInvitationsResponse> {
    const user = await this.deps.users.findById(userId, { email: 1 }).lean();
    if (!user) return { invitations: [] };
    const open = await this.deps.invitations
      .find({ email: user.email, closedAt: null, expiresAt: { $gt: this.now() } })
      .sort({ createdAt: -1 })
      .limit(50)
      .lean();
    const teams = await this.deps.teams.find({ _id: { $in: open.map((i) => i.teamId) } }, { name: 1 }).lean();
    const names = new Map(teams.map((t) => [t._id.toString(), t.name]));
    return {
      invitations: open.flatMap((i) => {
        const name = names.get(i.teamId);
        if (name === undefined) return [];
        const { email: _email, ...rest } = toInvitation(i);
        return [{ ...rest, team: { id: i.teamId, name } }];
      }),
    };
  }

  async accept(actor: EventActor, invitationId: string, requestId?: string): Promise<TeamResponse> {
    const userId = actor.userId;
    const invitation = await this.openInvitationFor(userId, invitationId);
    await this.claimSeat(userId, invitation.teamId);
    const closed = await this.deps.invitations.findOneAndUpdate(
      { _id: invitation._id, closedAt: null },
      { $set: { closedAt: this.now(), closedReason: 'accepted' } },
    );
    if (!closed) {
      await this.releaseSeat(userId, invitation.teamId);
      throw new NotFoundError('Invitation not found');
    }
    const joined = await this.updateMembers(invitation.teamId, (members) =>
      members.some((m) => m.userId === userId)
        ? members
        : [...members, { userId, role: invitation.role, joinedAt: this.now() }],
    );
    if (!joined) {
      await this.releaseSeat(userId, invitation.teamId);
      throw new NotFoundError('This team no longer exists.');
    }
    await this.announce(
      'auth.team.member_joined',
      {
        teamId: invitation.teamId,
        userId,
        email: invitation.email,
        role: invitation.role,
        via: 'invitation',
        invitationId: invitation._id.toString(),
        actor,
        at: this.now().toISOString(),
      },
      requestId,
    );
    return this.view(userId);
  }

  /**
   * Puts a person in the team their organisation's single sign-on vouched for, as a member: the same claim of
   * `users.teamId` and compare-and-set of the members as an accepted invitation, with the seat check inside the
   * compare-and-set (two sign-ins racing for the last seat cannot both take it). NoSeatsError when it is full;
   * ConflictError when the person is in another team.
   */
  async joinBySso(userId: string, teamId: string, requestId?: string): Promise<void> {
    const team = await this.deps.teams.findById(teamId, { ownerId: 1 }).lean();
    if (!team) throw new NotFoundError('This team no longer exists.');
    const contractSeats = (await this.deps.seatsOf?.(team.ownerId)) ?? null;
    const seats = Math.min(contractSeats ?? MAX_TEAM_SEATS, MAX_TEAM_SEATS);
    await this.claimSeat(userId, teamId);
    let added = false;
    try {
      const joined = await this.updateMembers(teamId, (members) => {
        added = false;
        if (members.some((m) => m.userId === userId)) return members;
        if (members.length >= seats) throw new NoSeatsError();
        added = true;
        return [...members, { userId, role: 'member', joinedAt: this.now() }];
      });
      if (!joined) throw new NotFoundError('This team no longer exists.');
    } catch (err) {
      await this.releaseSeat(userId, teamId);
      throw err;
    }
    if (!added) return;
    await this.announce(
      'auth.team.member_joined',
      {
        teamId,
        userId,
        email: await this.emailOf(userId),
        role: 'member',
        via: 'sso',
        actor: { userId },
        at: this.now().toISOString(),
      },
      requestId,
    );
  }

  /** Declines an open invitation addressed to the caller; recorded once (a second decline finds it closed: 404). */
  async decline(actor: EventActor, invitationId: string, requestId?: string): Promise<void> {
    const invitation = await this.openInvitationFor(actor.userId, invitationId);
    const closed = await this.deps.invitations.updateOne(
      { _id: invitation._id, closedAt: null },
      { $set: { closedAt: this.now(), closedReason: 'declined' } },
    );
    if (closed.modifiedCount !== 1) return;
    await this.announce(
      'auth.team.invitation_declined',
      {
        teamId: invitation.teamId.toString(),
        invitationId: invitation._id.toString(),
        email: invitation.email,
        userId: actor.userId,
        actor,
        at: this.now().toISOString(),
      },
      requestId,
    );
  }

  /** Only the owner changes roles (so an admin cannot make more admins); the owner's own role never changes. */
  async changeRole(
    actor: EventActor,
    memberId: string,
    role: AssignableTeamRole,
    requestId?: string,
  ): Promise<TeamResponse> {
    const userId = actor.userId;
    const membership = await this.membershipOf(userId);
    if (!membership) throw notInTeam();
    if (membership.role !== 'owner') throw new NotAllowedError("Only the team's owner can change roles.");
    if (memberId === userId) throw new ConflictError("The owner's role cannot change.");
    // The member's role as the stored update found it (set inside the compare-and-set, which may run again).
    const found: { role: TeamRole | null } = { role: null };
    await this.updateMembers(membership.teamId, (members) => {
      found.role = null;
      return members.map((m) => {
        if (m.userId !== memberId) return m;
        found.role = m.role;
        return { ...m, role };
      });
    });
    const before = found.role;
    if (before === null) throw new NotFoundError('Member not found');
    // Giving a member the role they have changes nothing, and is not an entry of the audit log.
    if (before !== role && before !== 'owner') {
      await this.announce(
        'auth.team.member_role_changed',
        {
          teamId: membership.teamId,
          userId: memberId,
          email: await this.emailOf(memberId),
          from: before,
          to: role,
          actor,
          at: this.now().toISOString(),
        },
        requestId,
      );
    }
    return this.view(userId);
  }

  /**
   * Removes a member: anyone may leave (except the owner, who deletes the team instead); the owner removes anyone,
   * an admin removes members but not other admins.
   */
  async removeMember(actor: EventActor, memberId: string, requestId?: string): Promise<void> {
    const userId = actor.userId;
    const membership = await this.membershipOf(userId);
    if (!membership) throw notInTeam();
    const team = await this.deps.teams.findById(membership.teamId).lean();
    const target = team?.members.find((m) => m.userId === memberId);
    if (!team || !target) throw new NotFoundError('Member not found');
    if (target.role === 'owner') {
      throw new ConflictError('The owner cannot leave the team. Delete the team instead.');
    }
    if (memberId !== userId) {
      const allowed = membership.role === 'owner' || (membership.role === 'admin' && target.role === 'member');
      if (!allowed) throw new NotAllowedError("Only the team's owner can remove an admin; admins can remove members.");
    }
    let removed = false;
    await this.updateMembers(membership.teamId, (members) => {
      removed = members.some((m) => m.userId === memberId);
      return members.filter((m) => m.userId !== memberId);
    });
    await this.releaseSeat(memberId, membership.teamId);
    // Two removals racing: only the one that took the member out says so.
    if (!removed) return;
    await this.announce(
      'auth.team.member_removed',
      {
        teamId: membership.teamId,
        userId: memberId,
        email: await this.emailOf(memberId),
        role: target.role,
        left: memberId === userId,
        actor,
        at: this.now().toISOString(),
      },
      requestId,
    );
  }

  /**
   * Says that the seats of the team `ownerId` owns changed (its owner's Enterprise contract was recorded with another
   * number); nothing when the person owns no team or the number is the same.
   */
  async announceSeats(
    ownerId: string,
    change: { from: number | null; to: number | null },
    actor?: EventActor,
    requestId?: string,
  ): Promise<void> {
    if (change.from === change.to) return;
    const team = await this.deps.teams.findOne({ ownerId }, { _id: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    if (!team) return;
    await this.announce(
      'auth.team.seats_changed',
      {
        teamId: team._id.toString(),
        ownerId,
        from: change.from,
        to: change.to,
        ...(actor ? { actor } : {}),
        at: this.now().toISOString(),
      },
      requestId,
    );
  }

  /** Deletes the team (owner only): its keys are revoked, its members and invitations released. */
  async deleteTeam(actor: EventActor, requestId?: string): Promise<void> {
    const userId = actor.userId;
    const membership = await this.membershipOf(userId);
    if (!membership) throw notInTeam();
    if (membership.role !== 'owner') throw new NotAllowedError("Only the team's owner can delete the team.");
    const { teamId } = membership;
    await this.deps.revokeTeamKeys(teamId, requestId);
    await this.deps.invitations.updateMany(
      { teamId, closedAt: null },
      { $set: { closedAt: this.now(), closedReason: 'revoked' } },
    );
    const team = await this.deps.teams.findById(teamId, { name: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    const deleted = await this.deps.teams.deleteOne({ _id: teamId });
    const released = await this.deps.users.updateMany({ teamId }, { $set: { teamId: null } });
    // Two deletions at once: only the one that removed the team says so.
    if (!team || deleted.deletedCount !== 1) return;
    await this.announce(
      'auth.team.deleted',
      { teamId, name: team.name, members: released.modifiedCount, actor, at: this.now().toISOString() },
      requestId,
    );
  }

  private async emailOf(userId: string): Promise<string> {
    const user = await this.deps.users.findById(userId, { email: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    return user?.email ?? '';
  }

  /**
   * Publishes a membership event once the change is stored, waiting for the broker's confirm at most PUBLISH_WAIT_MS
   * (the bus goes on sending while the broker is away); one it did not confirm is logged. The audit log is written
   * from it by the audit consumer, never on this request's path.
   */
  private async announce<T extends TeamEventType>(type: T, data: EventData<T>, requestId?: string): Promise<void> {
    const confirmed = await this.deps.bus.publishWithin(type, data, PUBLISH_WAIT_MS, {
      ...(requestId !== undefined ? { requestId } : {}),
    });
    if (!confirmed) this.deps.logger.warn({ type, teamId: data.teamId }, 'team event not published');
  }

  private async requireManager(userId: string, what: string): Promise<Membership> {
    const membership = await this.membershipOf(userId);
    if (!membership) throw notInTeam();
    if (!canManage(membership.role)) throw new NotAllowedError(`Only the team's owner and admins can ${what}.`);
    return membership;
  }

  private async openInvitationFor(userId: string, invitationId: string): Promise<TeamInvitationDocument> {
    if (!Types.ObjectId.isValid(invitationId)) throw new NotFoundError('Invitation not found');
    const user = await this.deps.users.findById(userId, { email: 1 }).lean();
    const invitation = await this.deps.invitations
      .findOne({ _id: invitationId, email: user?.email, closedAt: null, expiresAt: { $gt: this.now() } })
      .lean();
    // Someone else's invitation is "not found", like any other person's object.
    if (!user || !invitation) throw new NotFoundError('Invitation not found');
    return invitation;
  }

  private openInvitationsOf(teamId: string): Promise<TeamInvitationDocument[]> {
    return this.deps.invitations
      .find({ teamId, closedAt: null, expiresAt: { $gt: this.now() } })
      .sort({ createdAt: -1 })
      .limit(MAX_TEAM_SEATS)
      .lean();
  }

  private async claimSeat(userId: string, teamId: string): Promise<void> {
    const claimed = await this.deps.users.updateOne({ _id: userId, teamId: null }, { $set: { teamId } });
    if (claimed.modifiedCount === 1) return;
    if (!(await this.deps.users.exists({ _id: userId }))) throw new NotFoundError('User not found');
    throw new ConflictError('You are already in a team. Leave it before creating or joining another.');
  }

  private async releaseSeat(userId: string, teamId: string): Promise<void> {
    await this.deps.users.updateOne({ _id: userId, teamId }, { $set: { teamId: null } });
  }

  /** Applies `change` to the members with a compare-and-set on `version`; false when the team is gone. */
  private async updateMembers(
    teamId: string,
    change: (members: TeamMemberEntry[]) => TeamMemberEntry[],
  ): Promise<boolean> {
    for (let attempt = 0; attempt < MEMBER_UPDATE_ATTEMPTS; attempt++) {
      const team = await this.deps.teams.findById(teamId).lean();
      if (!team) return false;
      const result = await this.deps.teams.updateOne(
        { _id: teamId, version: team.version },
        { $set: { members: change(team.members) }, $inc: { version: 1 } },
      );
      if (result.modifiedCount === 1 || result.matchedCount === 1) return true;
    }
    throw new ConflictError('The team changed while this was saved. Try again.');
  }

  private async tierOf(team: Pick<TeamDocument, 'ownerId'>): Promise<SubscriptionTier> {
    const owner = await this.deps.users.findById(team.ownerId, { subscriptionTier: 1 }).lean();
    return owner?.subscriptionTier ?? 'free';
  }
}

function canManage(role: TeamRole): boolean {
  return role === 'owner' || role === 'admin';
}

function toInvitation(doc: TeamInvitationDocument): TeamInvitation {
  return {
    id: doc._id.toString(),
    email: doc.email,
    role: doc.role,
    invitedBy: doc.invitedByName,
    createdAt: doc.createdAt.toISOString(),
    expiresAt: doc.expiresAt.toISOString(),
  };
}
