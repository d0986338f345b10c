import type { LoginRequest, RegisterRequest, SubscriptionTier, User } from '@kasa/contracts';
import {
  AuthenticationError,
  ConflictError,
  NotAllowedError,
  NotFoundError,
  Outbox,
  PUBLISH_WAIT_MS,
  TooManyRequestsError,
  type EventBus,
  type Logger,
} from '@kasa/service-kit';
import type { EventData } from '@kasa/contracts';
import { Types, type Model } from 'mongoose';
import { randomInt } from 'node:crypto';
import { hashPassword, verifyPassword } from './passwords';
import { toPublicUser, type UserDocument } from './userModel';
import type { EmailNotices, NoticeRequest } from '../notices/emailNotices';
import type { LoginThrottle } from './loginThrottle';

const DUPLICATE_KEY = 11000;
/** An account's owner hears about registrations with its address at most this often (their inbox is not a target). */
const REGISTRATION_NOTICE_INTERVAL_MS = 60 * 60_000;
/**
 * The answer to a registration with an address that has an account. It neither confirms nor names the account
 * (docs/adr/0008-registration-does-not-confirm-accounts.md); the owner gets an e-mail about the attempt.
 */
export const ADDRESS_UNAVAILABLE_MESSAGE =
  'This email address cannot be used to create a new account. If it is yours, sign in instead.';

/** The refusal of a password sign-in or registration for an address whose domain signs in through its organisation. */
export const SSO_REQUIRED_MESSAGE =
  'Your organisation signs in with single sign-on. Use “Sign in with your organisation (SSO)” instead of a password.';

export class UserService {
  /** `auth.user.registered`, kept on each new account until the broker confirmed it (`registeredEvent`). */
  readonly registeredEvents: Outbox;
  /** Whether an address's domain must sign in through its organisation (sso/ssoService.ts), once attached. */
  private ssoRequired: (email: string) => Promise<boolean> = async () => false;

  constructor(
    private readonly users: Model<UserDocument>,
    private readonly bus: Pick<EventBus, 'publishWithin'>,
    private readonly logger: Logger,
    private readonly security: { throttle: LoginThrottle; notices: EmailNotices },
  ) {
    this.registeredEvents = new Outbox({ model: users, field: 'registeredEvent', bus, logger });
  }

  /** Makes password sign-in and registration ask single sign-on whether the address's domain must use it. */
  attachSsoRequirement(check: (email: string) => Promise<boolean>): void {
    this.ssoRequired = check;
  }

  async register(input: RegisterRequest, requestId?: string): Promise<User> {
    await this.refuseWhenSsoRequired(input.email);
    await this.assertAvailable(input.email, input.username, requestId);
    const _id = new Types.ObjectId();
    const createdAt = new Date();
    // The event is written with the account (one document, one write), then published.
    const registered = this.registeredEvents.entry(
      'auth.user.registered',
      {
        userId: _id.toString(),
        username: input.username,
        subscriptionTier: 'free',
        registeredAt: createdAt.toISOString(),
      },
      { ...(requestId !== undefined ? { requestId } : {}) },
    );
    let doc: UserDocument;
    try {
      doc = (
        await this.users.create({
          _id,
          username: input.username,
          usernameKey: input.username.toLowerCase(),
          email: input.email,
          passwordHash: await hashPassword(input.password),
          subscriptionTier: 'free',
          createdAt,
          ...this.registeredEvents.set(registered),
        })
      ).toObject();
    } catch (err) {
      // Two registrations racing past assertAvailable: the unique index decides.
      if ((err as { code?: number }).code === DUPLICATE_KEY) {
        await this.assertAvailable(input.email, input.username, requestId);
        throw new ConflictError(ADDRESS_UNAVAILABLE_MESSAGE);
      }
      throw err;
    }
    // Waits for the broker's confirm at most 2 s; the outbox republishes what it did not confirm.
    await this.registeredEvents.publish(doc._id, registered);
    return toPublicUser(doc);
  }

  /**
   * Signs in, or says no without telling whether the address has an account: a wrong password and an unknown address
   * get the same 401 after the same argon2 work, and the same 429 once the address must wait (see LoginThrottle).
   * Each attempt is counted before any password work, so guesses during a wait cost the server nothing.
   */
  async authenticate(input: LoginRequest, requestId?: string, clientIp?: string): Promise<User> {
    const { throttle } = this.security;
    const failed = (userId: string | null, reason: EventData<'auth.user.sign_in_failed'>['reason']) =>
      this.announceSignIn(
        'auth.user.sign_in_failed',
        { userId, email: input.email, method: 'password', reason, ...at(clientIp) },
        requestId,
      );
    // Before the throttle and any password work: such an address never signs in with a password.
    await this.refuseWhenSsoRequired(input.email, () => failed(null, 'sso_required'));
    // Counted before the password is checked: guesses sent at once check at most the throttle's allowance.
    const attempt = await throttle.reserve(input.email).catch((err: unknown) => {
      if (err instanceof TooManyRequestsError) failed(null, 'throttled');
      throw err;
    });
    const { doc, ok } = await this.checkPassword(input).catch(async (err: unknown) => {
      await throttle.abandoned(attempt).catch(() => undefined);
      throw err;
    });
    if (!doc || !ok) {
      const outcome = await throttle.failed(attempt);
      if (doc && outcome.startedLockout) {
        this.notifyInBackground(
          {
            userId: doc._id.toString(),
            email: doc.email,
            notice: 'sign_in_throttled',
            occurredAt: new Date(),
            retryAfter: outcome.lockedUntil ?? undefined,
          },
          requestId,
        );
      }
      failed(doc ? doc._id.toString() : null, 'invalid_credentials');
      throw new AuthenticationError('Invalid email or password');
    }
    await throttle.succeeded(attempt);
    const userId = doc._id.toString();
    // Said only after the right password, so it tells nothing to someone guessing.
    if (doc.suspendedAt) {
      failed(userId, 'suspended');
      throw new NotAllowedError(
        'This account is suspended, so it cannot sign in. Contact the people who run this Kasa to have it restored.',
        { reason: 'account_suspended' },
      );
    }
    this.recordSignIn(userId, requestId, clientIp);
    return toPublicUser(doc);
  }

  /** 403 `sso_required` when the address's domain signs in through its organisation only. */
  private async refuseWhenSsoRequired(email: string, onRefused?: () => void): Promise<void> {
    if (!(await this.ssoRequired(email))) return;
    onRefused?.();
    throw new NotAllowedError(SSO_REQUIRED_MESSAGE, { reason: 'sso_required' });
  }

  /**
   * Makes the account of a person whose organisation vouched for them (single sign-on): no password, a username made
   * from the e-mail (with a suffix when taken), and the same `auth.user.registered` outbox entry, stored with it.
   * `announce` publishes that event: called once the account is kept (a sign-in refused for want of a seat removes
   * it first, with `discard`).
   */
  async createWithoutPassword(
    email: string,
    requestId?: string,
  ): Promise<{ user: User; announce: () => Promise<void>; discard: () => Promise<void> }> {
    const base = usernameBaseOf(email);
    for (let attempt = 0; attempt < 6; attempt++) {
      const username = attempt === 0 ? base : `${base.slice(0, 27)}-${randomInt(1000, 10_000)}`;
      const _id = new Types.ObjectId();
      const createdAt = new Date();
      const registered = this.registeredEvents.entry(
        'auth.user.registered',
        { userId: _id.toString(), username, subscriptionTier: 'free', registeredAt: createdAt.toISOString() },
        { ...(requestId !== undefined ? { requestId } : {}) },
      );
      try {
        const doc = (
          await this.users.create({
            _id,
            username,
            usernameKey: username.toLowerCase(),
            email,
            passwordHash: null,
            subscriptionTier: 'free',
            createdAt,
            ...this.registeredEvents.set(registered),
          })
        ).toObject();
        return {
          user: toPublicUser(doc),
          announce: () => this.registeredEvents.publish(doc._id, registered).then(() => undefined),
          discard: () => this.users.deleteOne({ _id: doc._id }).then(() => undefined),
        };
      } catch (err) {
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
        // The address was taken meanwhile: the caller signs that account in instead.
        if (await this.users.exists({ email })) throw new ConflictError(ADDRESS_UNAVAILABLE_MESSAGE);
      }
    }
    throw new ConflictError('No free username could be made from this address. Try again.');
  }

  /**
   * After a successful sign-in, off its answer: the account's last sign-in (the one write a sign-in adds) and
   * `auth.user.signed_in` for the audit log.
   */
  recordSignIn(userId: string, requestId?: string, clientIp?: string, method: 'password' | 'sso' = 'password'): void {
    const now = new Date();
    void this.users
      .updateOne({ _id: userId }, { $set: { lastSignInAt: now } })
      .catch((err: unknown) => this.logger.warn({ err, userId }, 'last sign-in not recorded'));
    this.announceSignIn('auth.user.signed_in', { userId, method, ...at(clientIp, now) }, requestId);
  }

  /** Sign-in events go out after the answer and never hold it (a broker that is away loses them; see README). */
  announceSignIn<T extends 'auth.user.signed_in' | 'auth.user.sign_in_failed'>(
    type: T,
    data: EventData<T>,
    requestId?: string,
  ): void {
    void this.bus.publishWithin(type, data, PUBLISH_WAIT_MS, {
      ...(requestId !== undefined ? { requestId } : {}),
      onSettled: (confirmed) => confirmed || this.logger.warn({ type }, 'sign-in event not published'),
    });
  }

  /** The account of the address (if any) and whether the password is its own, after the same argon2 work either way. */
  private async checkPassword(input: LoginRequest) {
    const doc = await this.users.findOne({ email: input.email }).lean();
    return { doc, ok: await verifyPassword(doc?.passwordHash, input.password) };
  }

  /**
   * Tells the owner that someone tried to register with their address, at most once an hour (claimed with a
   * conditional update, so attempts at once send one notice).
   */
  private async noticeRegistrationAttempt(
    owner: Pick<UserDocument, '_id' | 'email'>,
    requestId?: string,
  ): Promise<void> {
    const now = new Date();
    const claimed = await this.users.updateOne(
      {
        _id: owner._id,
        $or: [
          { registrationNoticeAt: { $exists: false } },
          { registrationNoticeAt: null },
          { registrationNoticeAt: { $lte: new Date(now.getTime() - REGISTRATION_NOTICE_INTERVAL_MS) } },
        ],
      },
      { $set: { registrationNoticeAt: now } },
    );
    if (claimed.modifiedCount !== 1) return;
    this.notifyInBackground(
      { userId: owner._id.toString(), email: owner.email, notice: 'registration_attempted', occurredAt: now },
      requestId,
    );
  }

  /**
   * Sends an owner's notice after the answer: only known accounts get notices, so waiting for one would make their
   * answers slower than an unknown address's. The outbox keeps the notice once written.
   */
  private notifyInBackground(request: NoticeRequest, requestId?: string): void {
    void this.security.notices
      .send(request, requestId)
      .catch((err: unknown) => this.logger.warn({ err, notice: request.notice }, 'account notice not stored'));
  }

  async findById(id: string): Promise<User> {
    const doc = await this.users.findById(id).lean();
    if (!doc) throw new NotFoundError('User not found');
    return toPublicUser(doc);
  }

  /** What an API key of the account acts with: its current name and tier, and whether it is suspended. */
  async keyOwner(id: string): Promise<{ username: string; tier: SubscriptionTier; suspended: boolean }> {
    const doc = await this.users
      .findById(id, { username: 1, subscriptionTier: 1, suspendedAt: 1 })
      .lean()
      .catch(() => null);
    if (!doc) throw new NotFoundError('User not found');
    return { username: doc.username, tier: doc.subscriptionTier, suspended: !!doc.suspendedAt };
  }

  /** Sets the account's subscription tier; answers with the tier it had before and the updated account. */
  async changeTier(id: string, tier: SubscriptionTier): Promise<{ previous: SubscriptionTier; user: User }> {
    const before = await this.users
      .findOneAndUpdate({ _id: id }, { $set: { subscriptionTier: tier } }, { new: false })
      .lean();
    if (!before) throw new NotFoundError('User not found');
    return { previous: before.subscriptionTier, user: toPublicUser({ ...before, subscriptionTier: tier }) };
  }

  /** Re-sends registration events the broker has not confirmed (the kit's outbox: same ids); how many were sent. */
  async republishPending(): Promise<number> {
    return (await this.registeredEvents.republish()).attempted;
  }

  private async assertAvailable(email: string, username: string, requestId?: string): Promise<void> {
    const owner = await this.users.findOne({ email }, { _id: 1, email: 1 }).lean();
    if (owner) {
      await this.noticeRegistrationAttempt(owner, requestId);
      throw new ConflictError(ADDRESS_UNAVAILABLE_MESSAGE);
    }
    if (await this.users.exists({ usernameKey: username.toLowerCase() })) {
      throw new ConflictError('This username is already taken');
    }
  }
}

/** A username (2–32 letters, digits, `.`, `-`, `_`) from the e-mail's local part (`user1234` when too little is left). */
export function usernameBaseOf(email: string): string {
  const name = (email.split('@')[0] ?? '')
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 32)
    .replace(/[._-]+$/, '');
  return name.length >= 2 ? name : `user${randomInt(1000, 10_000)}`;
}

/** The time and client address of a sign-in event. */
export function at(clientIp: string | undefined, when = new Date()): { at: string; clientIp?: string } {
  return { at: when.toISOString(), ...(clientIp ? { clientIp } : {}) };
}
