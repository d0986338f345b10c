import type { AssignableTeamRole, Team, TeamRole, SubscriptionTier } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface TeamMemberEntry {
  userId: string;
  role: TeamRole;
  joinedAt: Date;
}

/**
 * A team with its members embedded: every change of membership is one single-document update guarded by
 * `version` (optimistic concurrency), which MongoDB and FerretDB both serve without transactions or positional
 * operators.
 */
export interface TeamDocument {
  _id: Types.ObjectId;
  name: string;
  ownerId: string;
  members: TeamMemberEntry[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const teamSchema = new Schema<TeamDocument>(
  {
    name: { type: String, required: true },
    ownerId: { type: String, required: true, index: true },
    members: {
      type: [
        new Schema<TeamMemberEntry>(
          {
            userId: { type: String, required: true },
            role: { type: String, enum: ['owner', 'admin', 'member'], required: true },
            joinedAt: { type: Date, required: true },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
    version: { type: Number, default: 0 },
  },
  { timestamps: true, versionKey: false, collection: 'teams' },
);

export function teamModel(connection: Connection): Model<TeamDocument> {
  return connection.models.Team ?? connection.model<TeamDocument>('Team', teamSchema);
}

/** An open invitation is neither accepted, declined nor revoked, and not expired (checked in queries, no TTL). */
export interface TeamInvitationDocument {
  _id: Types.ObjectId;
  teamId: string;
  /** Lower-cased; the invitee accepts from the account with this email. */
  email: string;
  role: AssignableTeamRole;
  invitedBy: string;
  invitedByName: string;
  expiresAt: Date;
  closedAt: Date | null;
  closedReason: 'accepted' | 'declined' | 'revoked' | null;
  createdAt: Date;
  updatedAt: Date;
}

const invitationSchema = new Schema<TeamInvitationDocument>(
  {
    teamId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, enum: ['admin', 'member'], required: true },
    invitedBy: { type: String, required: true },
    invitedByName: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    closedAt: { type: Date, default: null },
    closedReason: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'team_invitations' },
);
invitationSchema.index({ email: 1, closedAt: 1 });
invitationSchema.index({ teamId: 1, closedAt: 1 });

export function teamInvitationModel(connection: Connection): Model<TeamInvitationDocument> {
  return (
    connection.models.TeamInvitation ?? connection.model<TeamInvitationDocument>('TeamInvitation', invitationSchema)
  );
}

export function toPublicTeam(doc: Pick<TeamDocument, '_id' | 'name' | 'createdAt'>, tier: SubscriptionTier): Team {
  return { id: doc._id.toString(), name: doc.name, tier, createdAt: doc.createdAt.toISOString() };
}
