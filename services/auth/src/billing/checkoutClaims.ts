import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A person's checkout in progress: one document per person, created by the first checkout and held until its
 * payment completes or fails, so that checkouts sent at once make one payment (the others are answered with it).
 */
export interface CheckoutClaimDocument {
  /** The person's id: the unique key that lets one checkout in. */
  _id: string;
  /** The payment reference of the checkout that holds the claim. */
  reference: string;
  /** A claim left by a process that died mid-checkout is taken over after this. */
  expiresAt: Date;
}

const checkoutClaimSchema = new Schema<CheckoutClaimDocument>(
  {
    _id: { type: String, required: true },
    reference: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'checkout_claims' },
);

export function checkoutClaimModel(connection: Connection): Model<CheckoutClaimDocument> {
  return (
    connection.models.CheckoutClaim ?? connection.model<CheckoutClaimDocument>('CheckoutClaim', checkoutClaimSchema)
  );
}

const DUPLICATE_KEY = 11000;

/** Claims, held and given back with single-document writes (atomic on MongoDB and the embedded FerretDB). */
export class CheckoutClaims {
  constructor(
    private readonly claims: Model<CheckoutClaimDocument>,
    /** How long a claim holds at most: longer than a person takes on a processor's payment page. */
    private readonly ttlMs: number,
    private readonly now: () => Date,
  ) {}

  /** Claims the person's checkout for `reference`; answers the reference that holds it (this one, or another). */
  async claim(userId: string, reference: string): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.claims.create({ _id: userId, reference, expiresAt: new Date(this.now().getTime() + this.ttlMs) });
        return reference;
      } catch (err) {
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      }
      const held = await this.claims.findById(userId).lean();
      if (!held) continue;
      if (held.expiresAt > this.now()) return held.reference;
      // Left behind: taken over only by the one who removes exactly that claim.
      await this.claims.deleteOne({ _id: userId, reference: held.reference });
    }
    throw new Error('checkout claim: could not settle');
  }

  /** Gives the claim back (its checkout ended); a claim held by another reference is left alone. */
  async release(userId: string, reference: string): Promise<void> {
    await this.claims.deleteOne({ _id: userId, reference });
  }
}
