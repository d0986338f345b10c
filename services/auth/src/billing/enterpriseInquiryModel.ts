import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * A request to be contacted about Enterprise. One record per person: asking again updates it (the sales team sees
 * one line per customer, with how often and when they last asked).
 */
export interface EnterpriseInquiryDocument {
  _id: Types.ObjectId;
  userId: string;
  username: string;
  email: string;
  /** The tier the person was on when they last asked. */
  currentTier: string;
  /** What the inquiry form said (absent for an inquiry made without it). */
  company?: string | null;
  seats?: number | null;
  phone?: string | null;
  message?: string | null;
  status: 'open' | 'contacted' | 'closed';
  requestCount: number;
  lastRequestedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const enterpriseInquirySchema = new Schema<EnterpriseInquiryDocument>(
  {
    userId: { type: String, required: true, unique: true },
    username: { type: String, required: true },
    email: { type: String, required: true },
    currentTier: { type: String, required: true },
    company: { type: String, default: null },
    seats: { type: Number, default: null },
    phone: { type: String, default: null },
    message: { type: String, default: null },
    status: { type: String, enum: ['open', 'contacted', 'closed'], default: 'open' },
    requestCount: { type: Number, default: 0 },
    lastRequestedAt: { type: Date, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'enterprise_inquiries' },
);

// The operators' list: newest first, of one status or all.
enterpriseInquirySchema.index({ status: 1, lastRequestedAt: -1 });
enterpriseInquirySchema.index({ lastRequestedAt: -1 });

export function enterpriseInquiryModel(connection: Connection): Model<EnterpriseInquiryDocument> {
  return (
    connection.models.EnterpriseInquiry ??
    connection.model<EnterpriseInquiryDocument>('EnterpriseInquiry', enterpriseInquirySchema)
  );
}
