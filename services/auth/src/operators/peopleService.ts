import { PLANS, type PersonDetail, type PersonSummary } from '@kasa/contracts';
import { InputError, NotFoundError } from '@kasa/service-kit';
import type { FilterQuery, Model } from 'mongoose';
import type { ApiKeyDocument } from '../apiKeys/apiKeyModel';
import type { BillingService } from '../billing/billingService';
import type { TeamDocument } from '../teams/teamModel';
import type { UserDocument } from '../users/userModel';
import { suspensionOf } from './suspensions';

const QUERY_TIME_LIMIT_MS = 5_000;
/** A person's keys shown to an operator, newest first (the owner's own list shows as many). */
const KEYS_SHOWN = 100;
const OBJECT_ID = /^[a-f\d]{24}$/i;

/** How a search reads: an exact id, e-mails by prefix (the query has an `@`), usernames by prefix, or everyone. */
type SearchMode = 'id' | 'email' | 'username' | 'all';

/** Where a page of a search ends: the mode and the last sort key. */
interface PeopleCursor {
  m: SearchMode;
  k: string;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function searchModeOf(q: string): SearchMode {
  if (!q) return 'all';
  if (OBJECT_ID.test(q)) return 'id';
  return q.includes('@') ? 'email' : 'username';
}

export function encodePeopleCursor(cursor: PeopleCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function decodePeopleCursor(cursor: string, mode: SearchMode): PeopleCursor {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<PeopleCursor>;
    if (parsed.m === mode && typeof parsed.k === 'string') return { m: parsed.m, k: parsed.k };
  } catch {
    /* answered below */
  }
  throw new InputError('cursor: not a cursor from an earlier page of this search', { field: 'cursor' });
}

/**
 * The operators' view of people. A search reads one unique index by a prefix (`usernameKey` or `email`, anchored,
 * case-folded as stored) or `_id`, page by page after the last key, so it costs the same whatever the number of
 * accounts. A person's page reads their account, subscription, keys and team, each by its own index.
 */
export class PeopleService {
  constructor(
    private readonly deps: {
      users: Model<UserDocument>;
      keys: Model<ApiKeyDocument>;
      teams: Model<TeamDocument>;
      billing: Pick<BillingService, 'getSubscription'>;
      configuredOperatorEmails: readonly string[];
      now?: () => Date;
    },
  ) {}

  async search(query: {
    q: string;
    limit: number;
    cursor?: string;
  }): Promise<{ people: PersonSummary[]; nextCursor: string | null }> {
    const q = query.q.trim().toLowerCase();
    const mode = searchModeOf(q);
    const after = query.cursor ? decodePeopleCursor(query.cursor, mode) : undefined;
    let filter: FilterQuery<UserDocument>;
    let sortKey: 'usernameKey' | 'email' | '_id';
    switch (mode) {
      case 'id':
        if (after) return { people: [], nextCursor: null };
        filter = { _id: q };
        sortKey = '_id';
        break;
      case 'email':
        filter = { email: { $regex: `^${escapeRegex(q)}`, ...(after ? { $gt: after.k } : {}) } };
        sortKey = 'email';
        break;
      case 'username':
        filter = { usernameKey: { $regex: `^${escapeRegex(q)}`, ...(after ? { $gt: after.k } : {}) } };
        sortKey = 'usernameKey';
        break;
      default:
        // Everyone, newest account first.
        filter = after ? { _id: { $lt: after.k } } : {};
        sortKey = '_id';
    }
    const docs = await this.deps.users
      .find(filter, SUMMARY_FIELDS)
      .sort({ [sortKey]: mode === 'all' ? -1 : 1 })
      .limit(query.limit + 1)
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    const more = docs.length > query.limit;
    const shown = more ? docs.slice(0, query.limit) : docs;
    const last = shown.at(-1);
    const key = last && (sortKey === '_id' ? last._id.toString() : String(last[sortKey]));
    return {
      people: shown.map((doc) => this.summaryOf(doc)),
      nextCursor: more && key ? encodePeopleCursor({ m: mode, k: key }) : null,
    };
  }

  async detail(userId: string): Promise<PersonDetail> {
    const doc = OBJECT_ID.test(userId)
      ? await this.deps.users
          .findById(userId, { ...SUMMARY_FIELDS, suspensionReason: 1, suspendedBy: 1, teamId: 1 })
          .maxTimeMS(QUERY_TIME_LIMIT_MS)
          .lean()
      : null;
    if (!doc) throw new NotFoundError('No account has this id.');
    const [{ subscription }, keys, team] = await Promise.all([
      this.deps.billing.getSubscription(userId),
      this.deps.keys
        .find({ userId }, { name: 1, prefix: 1, createdAt: 1, expiresAt: 1, lastUsedAt: 1, revokedAt: 1, teamId: 1 })
        .sort({ createdAt: -1, _id: -1 })
        .limit(KEYS_SHOWN)
        .maxTimeMS(QUERY_TIME_LIMIT_MS)
        .lean(),
      doc.teamId
        ? this.deps.teams.findById(doc.teamId, { name: 1, members: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean()
        : null,
    ]);
    const now = this.deps.now?.() ?? new Date();
    const monthlyCalls = PLANS[doc.subscriptionTier].monthlyCalls;
    const member = team?.members.find((m) => m.userId === userId);
    return {
      ...this.summaryOf(doc),
      suspension: suspensionOf(doc),
      plan: { tier: doc.subscriptionTier, monthlyCalls, subscription },
      usage: { month: now.toISOString().slice(0, 7), monthlyCalls },
      // Never the key nor its hash: what the owner's own list shows.
      apiKeys: keys.map((key) => ({
        id: key._id.toString(),
        name: key.name,
        prefix: key.prefix,
        createdAt: key.createdAt.toISOString(),
        expiresAt: key.expiresAt?.toISOString() ?? null,
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
        teamId: key.teamId ?? null,
      })),
      teams: team
        ? [
            {
              id: team._id.toString(),
              name: team.name,
              role: member?.role ?? 'member',
              joinedAt: member?.joinedAt?.toISOString() ?? null,
            },
          ]
        : [],
    };
  }

  private summaryOf(
    doc: Pick<
      UserDocument,
      '_id' | 'username' | 'email' | 'subscriptionTier' | 'operator' | 'suspendedAt' | 'createdAt' | 'lastSignInAt'
    >,
  ): PersonSummary {
    return {
      id: doc._id.toString(),
      username: doc.username,
      email: doc.email,
      tier: doc.subscriptionTier,
      operator: doc.operator === true || this.deps.configuredOperatorEmails.includes(doc.email.toLowerCase()),
      suspended: !!doc.suspendedAt,
      createdAt: doc.createdAt.toISOString(),
      lastSignInAt: doc.lastSignInAt?.toISOString() ?? null,
    };
  }
}

const SUMMARY_FIELDS = {
  username: 1,
  usernameKey: 1,
  email: 1,
  subscriptionTier: 1,
  operator: 1,
  suspendedAt: 1,
  createdAt: 1,
  lastSignInAt: 1,
} as const;
