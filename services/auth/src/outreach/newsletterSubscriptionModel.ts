import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** An address that asked for the newsletter. One record per address (lower-cased by the contract). */
export interface NewsletterSubscriptionDocument {
  _id: Types.ObjectId;
  email: string;
  createdAt: Date;
  updatedAt: Date;
}

const newsletterSubscriptionSchema = new Schema<NewsletterSubscriptionDocument>(
  { email: { type: String, required: true, unique: true } },
  { timestamps: true, versionKey: false, collection: 'newsletter_subscriptions' },
);

export function newsletterSubscriptionModel(connection: Connection): Model<NewsletterSubscriptionDocument> {
  return (
    connection.models.NewsletterSubscription ??
    connection.model<NewsletterSubscriptionDocument>('NewsletterSubscription', newsletterSubscriptionSchema)
  );
}
