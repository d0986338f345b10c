import {
  ConflictError,
  InputError,
  NotFoundError,
  PUBLISH_WAIT_MS,
  type EventBus,
  type Logger,
} from '@kasa/service-kit';
import type { EventActor, PlanCurrency, Subscription } from '@kasa/contracts';
import { isValidObjectId, type Connection, type Model } from 'mongoose';
import type { BillingService } from '../billing/billingService';
import type { TeamService } from '../teams/teamService';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { enterpriseInquiryModel, type EnterpriseInquiryDocument } from '../billing/enterpriseInquiryModel';
import { userModel, type UserDocument } from '../users/userModel';
import { setupTokenModel, type SetupTokenDocument } from './setupTokenModel';

const SETUP_ID = 'first-run';
/** A setup link is good for a day: long enough to open it after installing, short enough not to linger. */
export const SETUP_LINK_TTL_MS = 24 * 3600_000;
const LIST_MAX = 200;

/** Why a person is an operator: chosen by another operator (or the command, or the setup link), or by configuration. */
export type OperatorSource = 'granted' | 'configured';

export interface OperatorView {
  id: string;
  username: string;
  email: string;
  source: OperatorSource;
}

export interface InquiryView {
  id: string;
  userId: string;
  username: string;
  email: string;
  currentTier: string;
  company: string | null;
  seats: number | null;
  phone: string | null;
  message: string | null;
  status: EnterpriseInquiryDocument['status'];
  requestCount: number;
  lastRequestedAt: string;
  createdAt: string;
}

/** An Enterprise contract's terms as an operator records them. */
export interface ContractTerms {
  seats: number;
  endsAt: Date;
  amount?: number;
  currency?: PlanCurrency;
}

export interface OperatorServiceDeps {
  /** Records Enterprise contracts on the subscription model (billing's ledger), and reads the seats before. */
  billing: Pick<BillingService, 'grantContract' | 'getSubscription'>;
  /** Announces a contract's new seats for the team its customer owns (`auth.team.seats_changed`). */
  teams?: Pick<TeamService, 'announceSeats'>;
  /** Announces role changes (`auth.operator.role_changed`) for the audit log. */
  bus?: Pick<EventBus, 'publishWithin'>;
  users: Model<UserDocument>;
  setupTokens: Model<SetupTokenDocument>;
  inquiries: Model<EnterpriseInquiryDocument>;
  /** KASA_OPERATOR_EMAILS, lower-cased: those accounts are operators while the setting names them. */
  configuredEmails: readonly string[];
  logger: Logger;
  now?: () => Date;
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();
const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Who runs this Kasa. The operator role is a flag on the account (auth owns people), or an e-mail named in
 * KASA_OPERATOR_EMAILS; it is read from the database on every operator request, never from a token, so taking it
 * away works at once although access tokens live for days. The first operator of a new installation comes from the
 * first-run setup link (`npm run kasa -- setup-link`, printed by `npm start` while nobody is an operator) or from the
 * operator command; operators then add and remove others.
 */
export class OperatorService {
  private readonly configured: ReadonlySet<string>;
  private readonly now: () => Date;

  constructor(private readonly deps: OperatorServiceDeps) {
    this.configured = new Set(deps.configuredEmails.map(normalEmail));
    this.now = deps.now ?? (() => new Date());
  }

  async isOperator(userId: string): Promise<boolean> {
    const user = await this.deps.users
      .findById(userId, { operator: 1, email: 1, suspendedAt: 1 })
      .lean()
      .catch(() => null);
    // A suspended operator acts as nobody until restored.
    return !!user && !user.suspendedAt && (user.operator === true || this.configured.has(normalEmail(user.email)));
  }

  /** Whether anyone can act as an operator yet (a configured e-mail counts once its account exists). */
  async anyOperator(): Promise<boolean> {
    if (await this.deps.users.exists({ operator: true })) return true;
    if (this.configured.size === 0) return false;
    return !!(await this.deps.users.exists({ email: { $in: [...this.configured] } }));
  }

  async list(): Promise<OperatorView[]> {
    const docs = await this.deps.users
      .find(
        { $or: [{ operator: true }, { email: { $in: [...this.configured] } }] },
        { username: 1, email: 1, operator: 1 },
      )
      .sort({ _id: 1 })
      .limit(LIST_MAX)
      .lean();
    return docs.map((doc) => ({
      id: doc._id.toString(),
      username: doc.username,
      email: doc.email,
      source: this.configured.has(normalEmail(doc.email)) ? 'configured' : 'granted',
    }));
  }

  /** Makes the account with this e-mail an operator (idempotent); a setup link still open is void after it. */
  async grant(email: string, actor?: EventActor, requestId?: string): Promise<OperatorView> {
    const user = await this.deps.users
      .findOneAndUpdate({ email: normalEmail(email) }, { $set: { operator: true } }, { new: true })
      .lean();
    if (!user) throw new NotFoundError('No account uses this e-mail address. The person signs up first.');
    await this.deps.setupTokens.deleteOne({ _id: SETUP_ID, usedAt: null });
    this.deps.logger.info({ userId: user._id.toString() }, 'an account was made an operator');
    this.announce(user._id.toString(), true, actor, requestId);
    return { id: user._id.toString(), username: user.username, email: user.email, source: 'granted' };
  }

  /**
   * Takes the role away from a granted operator. `by` (an operator acting through the API) cannot remove themselves,
   * so the console is never left without the person using it; a configured operator is removed in the configuration.
   */
  async revoke(target: { userId?: string; email?: string }, actor?: EventActor, requestId?: string): Promise<void> {
    const by = actor?.userId;
    const filter = target.userId ? { _id: target.userId } : { email: normalEmail(target.email ?? '') };
    const user = await this.deps.users
      .findOne(filter, { email: 1, operator: 1 })
      .lean()
      .catch(() => null);
    if (!user || (user.operator !== true && !this.configured.has(normalEmail(user.email)))) {
      throw new NotFoundError('This person is not an operator.');
    }
    if (by && user._id.toString() === by) throw new ConflictError('Operators cannot remove themselves.');
    if (this.configured.has(normalEmail(user.email))) {
      throw new ConflictError('This operator is named in KASA_OPERATOR_EMAILS: remove the address there.');
    }
    await this.deps.users.updateOne({ _id: user._id }, { $set: { operator: false } });
    this.deps.logger.info({ userId: user._id.toString() }, 'an operator was removed');
    this.announce(user._id.toString(), false, actor, requestId);
  }

  /** Tells the audit log about a role change, after the answer and without holding it. */
  private announce(userId: string, operator: boolean, actor?: EventActor, requestId?: string): void {
    void this.deps.bus?.publishWithin(
      'auth.operator.role_changed',
      { userId, operator, ...(actor ? { actor } : {}) },
      PUBLISH_WAIT_MS,
      { ...(requestId !== undefined ? { requestId } : {}) },
    );
  }

  /**
   * A new first-run setup link's secret, replacing any earlier one; null once somebody is an operator (the link
   * exists only to make the first one). The secret is returned once and only its hash is kept.
   */
  async issueSetupToken(): Promise<{ token: string; expiresAt: Date } | null> {
    if (await this.anyOperator()) return null;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now().getTime() + SETUP_LINK_TTL_MS);
    await this.deps.setupTokens.replaceOne(
      { _id: SETUP_ID },
      { _id: SETUP_ID, tokenHash: hashOf(token).toString('hex'), expiresAt, usedAt: null, usedBy: null },
      { upsert: true },
    );
    return { token, expiresAt };
  }

  /**
   * The signed-in person who opens the setup link becomes the first operator. The link is used up by one
   * compare-and-set, so of two people racing with it one wins; a wrong, used or expired link changes nothing.
   */
  async redeemSetupToken(token: string, userId: string): Promise<void> {
    const invalid = () =>
      new InputError(
        'This setup link is not valid: it was used, replaced or has expired. Whoever runs Kasa can print a new one with `npm run kasa -- setup-link`.',
        undefined,
        'setup_link_invalid',
      );
    const stored = await this.deps.setupTokens.findById(SETUP_ID).lean();
    const given = hashOf(token);
    if (!stored || !timingSafeEqual(Buffer.from(stored.tokenHash, 'hex'), given)) throw invalid();
    const now = this.now();
    const claimed = await this.deps.setupTokens.findOneAndUpdate(
      { _id: SETUP_ID, tokenHash: stored.tokenHash, usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now, usedBy: userId } },
    );
    if (!claimed) throw invalid();
    const made = await this.deps.users.updateOne({ _id: userId }, { $set: { operator: true } }).catch(() => null);
    if (!made?.matchedCount) throw new NotFoundError('Your account was not found.');
    this.deps.logger.info({ userId }, 'the first operator was set up through the setup link');
    this.announce(userId, true, { userId });
  }

  /**
   * Turns an Enterprise inquiry (its id) or a person (their e-mail) into an Enterprise subscription on a contract:
   * the account has Enterprise at once, with the seats and until the date agreed; the inquiry is closed.
   */
  async grantEnterprise(
    target: { inquiryId: string } | { email: string },
    terms: ContractTerms,
    requestId?: string,
    actor?: EventActor,
  ): Promise<{ userId: string; email: string; subscription: Subscription }> {
    let user: { _id: unknown; email: string } | null;
    if ('inquiryId' in target) {
      const inquiry = isValidObjectId(target.inquiryId)
        ? await this.deps.inquiries.findById(target.inquiryId).lean()
        : null;
      if (!inquiry) throw new NotFoundError('No Enterprise inquiry has this id.');
      user = await this.deps.users.findById(inquiry.userId, { email: 1 }).lean();
    } else {
      user = await this.deps.users.findOne({ email: normalEmail(target.email) }, { email: 1 }).lean();
    }
    if (!user) throw new NotFoundError('No account uses this e-mail address. The person signs up first.');
    const userId = String(user._id);
    const seatsBefore = (await this.deps.billing.getSubscription(userId)).subscription?.seats ?? null;
    const subscription = await this.deps.billing.grantContract(userId, terms, requestId, actor);
    await this.deps.teams?.announceSeats(userId, { from: seatsBefore, to: subscription.seats }, actor, requestId);
    await this.deps.inquiries.updateMany({ userId, status: { $ne: 'closed' } }, { $set: { status: 'closed' } });
    this.deps.logger.info({ userId, seats: terms.seats, endsAt: terms.endsAt }, 'an Enterprise contract was recorded');
    return { userId, email: user.email, subscription };
  }

  /** Enterprise inquiries, most recent first, optionally of one status; `before` pages by the last one's time. */
  async inquiries(query: {
    status?: EnterpriseInquiryDocument['status'];
    limit: number;
    before?: Date;
  }): Promise<InquiryView[]> {
    const filter: Record<string, unknown> = {};
    if (query.status) filter.status = query.status;
    if (query.before) filter.lastRequestedAt = { $lt: query.before };
    const docs = await this.deps.inquiries
      .find(filter)
      .sort({ lastRequestedAt: -1 })
      .limit(Math.min(query.limit, LIST_MAX))
      .lean();
    return docs.map((doc) => ({
      id: doc._id.toString(),
      userId: doc.userId,
      username: doc.username,
      email: doc.email,
      currentTier: doc.currentTier,
      company: doc.company ?? null,
      seats: doc.seats ?? null,
      phone: doc.phone ?? null,
      message: doc.message ?? null,
      status: doc.status,
      requestCount: doc.requestCount,
      lastRequestedAt: doc.lastRequestedAt.toISOString(),
      createdAt: doc.createdAt.toISOString(),
    }));
  }
}

/** An OperatorService over the auth database (the service, the operator command and the tests make it so). */
export function createOperatorService(
  db: Connection,
  logger: Logger,
  configuredEmails: readonly string[],
  billing: Pick<BillingService, 'grantContract' | 'getSubscription'>,
  bus?: Pick<EventBus, 'publishWithin'>,
  teams?: Pick<TeamService, 'announceSeats'>,
): OperatorService {
  return new OperatorService({
    billing,
    ...(bus ? { bus } : {}),
    ...(teams ? { teams } : {}),
    users: userModel(db),
    setupTokens: setupTokenModel(db),
    inquiries: enterpriseInquiryModel(db),
    configuredEmails,
    logger,
  });
}
