import type { Session } from '@kasa/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface SessionDocument {
  _id: Types.ObjectId;
  /** The user id the gateway vouched for; every query filters on it, so another user's session is a 404. */
  ownerId: string;
  personaId: string;
  title: string;
  /**
   * Set once a message of the conversation has a second version (an edit or a regenerated answer): from then on its
   * messages are read as a tree (ConversationTree). A conversation that never branched is read as one line, with the
   * same single query as before conversations could branch.
   */
  branched?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const sessionSchema = new Schema<SessionDocument>(
  {
    ownerId: { type: String, required: true },
    personaId: { type: String, required: true },
    title: { type: String, required: true },
    branched: Boolean,
  },
  { timestamps: true, versionKey: false, collection: 'sessions' },
);
// Listing my sessions newest first pages on _id (ObjectIds grow with time).
sessionSchema.index({ ownerId: 1, _id: -1 });

export function sessionModel(connection: Connection): Model<SessionDocument> {
  return connection.models.Session ?? connection.model<SessionDocument>('Session', sessionSchema);
}

export function toSession(doc: Pick<SessionDocument, '_id' | 'personaId' | 'title' | 'createdAt'>): Session {
  return { id: doc._id.toString(), personaId: doc.personaId, title: doc.title, createdAt: doc.createdAt.toISOString() };
}
