import type { LoginRequest, RegisterRequest, SubscriptionTier, User } from '@kasa/contracts';
import { AuthenticationError, ConflictError, NotFoundError, type EventBus, type Logger } from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { hashPassword, verifyPassword } from './passwords';
import { toPublicUser, type UserDocument } from './userModel';
import { waitForConfirm } from '../events/waitForConfirm';

const DUPLICATE_KEY = 11000;

export class UserService {
  constructor(
    private readonly users: Model<UserDocument>,
    private readonly bus: Pick<EventBus, 'publish'>,
    private readonly logger: Logger,
  ) {}

  async register(input: RegisterRequest, requestId?: string): Promise<User> {
    await this.assertAvailable(input.email, input.username);
    const eventId = randomUUID();
    let doc: UserDocument;
    try {
      doc = (
        await this.users.create({
          username: input.username,
          usernameKey: input.username.toLowerCase(),
          email: input.email,
          passwordHash: await hashPassword(input.password),
          subscriptionTier: 'free',
          pendingRegisteredEventId: eventId,
        })
      ).toObject();
    } catch (err) {
      // Two registrations racing past assertAvailable: the unique index decides.
      if ((err as { code?: number }).code === DUPLICATE_KEY) {
        await this.assertAvailable(input.email, input.username);
        throw new ConflictError('An account with this email or username already exists');
      }
      throw err;
    }
    await this.publishRegistered(doc, requestId);
    return toPublicUser(doc);
  }

  async authenticate(input: LoginRequest): Promise<User> {
    const doc = await this.users.findOne({ email: input.email }).lean();
    const ok = await verifyPassword(doc?.passwordHash, input.password);
    if (!doc || !ok) throw new AuthenticationError('Invalid email or password');
    return toPublicUser(doc);
  }

  async findById(id: string): Promise<User> {
    const doc = await this.users.findById(id).lean();
    if (!doc) throw new NotFoundError('User not found');
    return toPublicUser(doc);
  }

  /** Sets the account's subscription tier; answers with the tier it had before and the updated account. */
  async changeTier(id: string, tier: SubscriptionTier): Promise<{ previous: SubscriptionTier; user: User }> {
    const before = await this.users
      .findOneAndUpdate({ _id: id }, { $set: { subscriptionTier: tier } }, { new: false })
      .lean();
    if (!before) throw new NotFoundError('User not found');
    return { previous: before.subscriptionTier, user: toPublicUser({ ...before, subscriptionTier: tier }) };
  }

  /**
   * Publishes auth.user.registered and clears the document's pending marker once the broker confirms. If the broker
   * is down the marker stays, and `republishPending` sends the same event (same id) later.
   */
  private async publishRegistered(doc: UserDocument, requestId?: string): Promise<void> {
    const eventId = doc.pendingRegisteredEventId;
    if (!eventId) return;
    const publish = this.bus
      .publish(
        'auth.user.registered',
        {
          userId: doc._id.toString(),
          username: doc.username,
          subscriptionTier: doc.subscriptionTier,
          registeredAt: doc.createdAt.toISOString(),
        },
        { id: eventId, requestId },
      )
      .then(() =>
        this.users.updateOne({ _id: doc._id, pendingRegisteredEventId: eventId }, { pendingRegisteredEventId: null }),
      )
      .catch((err: unknown) =>
        this.logger.warn({ err, eventId }, 'auth.user.registered not yet published; will retry'),
      );
    // The response does not wait for a broker that is slow or away; the outbox marker guarantees delivery.
    await waitForConfirm(publish);
  }

  /** Re-sends registration events whose publish was never confirmed (older than `olderThanMs`). */
  async republishPending(olderThanMs = 10_000): Promise<number> {
    const stale = await this.users
      .find({ pendingRegisteredEventId: { $ne: null }, createdAt: { $lt: new Date(Date.now() - olderThanMs) } })
      .limit(100)
      .lean();
    for (const doc of stale) await this.publishRegistered(doc);
    return stale.length;
  }

  private async assertAvailable(email: string, username: string): Promise<void> {
    if (await this.users.exists({ email })) throw new ConflictError('An account with this email already exists');
    if (await this.users.exists({ usernameKey: username.toLowerCase() })) {
      throw new ConflictError('This username is already taken');
    }
  }
}
