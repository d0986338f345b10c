import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** A message sent from the contact page, kept for the team to answer. */
export interface ContactMessageDocument {
  _id: Types.ObjectId;
  /** What the sender is told to quote, e.g. `MSG-7M3QK9D2`. */
  reference: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: 'new' | 'answered' | 'closed';
  requestId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const contactMessageSchema = new Schema<ContactMessageDocument>(
  {
    reference: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    subject: { type: String, required: true },
    message: { type: String, required: true },
    status: { type: String, enum: ['new', 'answered', 'closed'], default: 'new' },
    requestId: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'contact_messages' },
);
contactMessageSchema.index({ createdAt: -1 });

export function contactMessageModel(connection: Connection): Model<ContactMessageDocument> {
  return (
    connection.models.ContactMessage ?? connection.model<ContactMessageDocument>('ContactMessage', contactMessageSchema)
  );
}
