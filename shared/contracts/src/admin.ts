import { SubscriptionTier } from './auth';
import { Subscription } from './billing';
import { ServiceState } from './status';
import { z } from './zod';

// The operators' API (`/api/admin/*`, services/auth/README.md#operators): to anyone who is not an operator every
// route is a 404, as an unknown path.

const Reason = z
  .string({ error: 'must be a text' })
  .trim()
  .min(1, { error: 'must say why (1 to 500 characters)' })
  .max(500, { error: 'must be at most 500 characters' });

/** A search of people: by id (exact), e-mail (the query has an `@`: by prefix) or username (by prefix); empty: all. */
export const PeopleSearchQuery = z
  .strictObject({
    q: z.string().trim().max(254, { error: 'must be at most 254 characters' }).default(''),
    cursor: z.string().max(512).optional(),
    limit: z.coerce.number().int().min(1).max(100, { error: 'must be at most 100' }).default(25),
  })
  .openapi('PeopleSearchQuery');
export type PeopleSearchQuery = z.infer<typeof PeopleSearchQuery>;

export const SuspendPersonRequest = z.strictObject({ reason: Reason }).openapi('SuspendPersonRequest');
export const RestorePersonRequest = z.strictObject({ reason: Reason.optional() }).openapi('RestorePersonRequest');
export const ChangePlanRequest = z
  .strictObject({
    tier: z.enum(SubscriptionTier.options, { error: 'must be free, pro or enterprise' }),
    reason: Reason,
  })
  .openapi('ChangePlanRequest');
export type ChangePlanRequest = z.infer<typeof ChangePlanRequest>;

export const PersonSummary = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    tier: SubscriptionTier,
    operator: z.boolean(),
    suspended: z.boolean(),
    createdAt: z.string(),
    lastSignInAt: z.string().nullable(),
  })
  .openapi('PersonSummary');
export type PersonSummary = z.infer<typeof PersonSummary>;

export const Suspension = z
  .object({
    suspended: z.boolean(),
    suspendedAt: z.string().nullable(),
    reason: z.string().nullable(),
    suspendedBy: z.string().nullable(),
  })
  .openapi('Suspension');
export type Suspension = z.infer<typeof Suspension>;

export const PersonDetail = PersonSummary.extend({
  suspension: Suspension,
  plan: z.object({
    tier: SubscriptionTier,
    monthlyCalls: z.number().int().nullable(),
    subscription: Subscription.nullable(),
  }),
  /** The plan's allowance of the current UTC month; the calls made are on the status service's usage. */
  usage: z.object({ month: z.string(), monthlyCalls: z.number().int().nullable() }),
  /** Never the key nor its hash. */
  apiKeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      createdAt: z.string(),
      expiresAt: z.string().nullable(),
      lastUsedAt: z.string().nullable(),
      revokedAt: z.string().nullable(),
      teamId: z.string().nullable(),
    }),
  ),
  teams: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), joinedAt: z.string().nullable() })),
}).openapi('PersonDetail');
export type PersonDetail = z.infer<typeof PersonDetail>;

export const PeopleSearchResponse = z
  .object({ people: z.array(PersonSummary), nextCursor: z.string().nullable() })
  .openapi('PeopleSearchResponse');
export const PersonResponse = z.object({ person: PersonDetail }).openapi('PersonResponse');
export const SuspensionResponse = z.object({ suspension: Suspension }).openapi('SuspensionResponse');
export const PlanChangeResponse = z
  .object({ from: SubscriptionTier, to: SubscriptionTier, subscription: Subscription.nullable() })
  .openapi('PlanChangeResponse');

/** What an audit entry records. */
export const AUDIT_ACTIONS = [
  'user.suspended',
  'user.restored',
  'plan.changed',
  'apikey.created',
  'apikey.revoked',
  'sign_in.succeeded',
  'sign_in.failed',
  'operator.granted',
  'operator.revoked',
  'sso.configured',
  'sso.removed',
  // Team membership: each entry names the team (`details.teamId`), who acted and the person concerned (`targetId`).
  'team.invitation_sent',
  'team.invitation_revoked',
  'team.member_joined',
  'team.member_removed',
  'team.member_left',
  'team.role_changed',
  'team.seats_changed',
  'team.invitation_declined',
  'team.deleted',
  // The AI provider chain (chat): the target is the provider (`provider:<name>`), or `providers` for a new order.
  'ai_provider.added',
  'ai_provider.updated',
  'ai_provider.removed',
  'ai_provider.reordered',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(', ')}` });
export type AuditAction = z.infer<typeof AuditAction>;

/** The most rows one CSV export of the audit log carries. */
export const AUDIT_CSV_MAX_ROWS = 10_000;

const IsoTime = z.iso.datetime({ error: 'must be an ISO 8601 date-time', offset: true });
const auditFilters = {
  /** Who acted (an account id). */
  actor: z.string().trim().min(1).max(64).optional(),
  /** Whom it concerned: an account id, or `email:<address>` for a refused sign-in with an unknown address. */
  target: z.string().trim().min(1).max(300).optional(),
  action: AuditAction.optional(),
  /** The window (at most 366 days; default the 30 days up to `to`, or up to now). */
  from: IsoTime.optional(),
  to: IsoTime.optional(),
};
export const AuditQuery = z
  .strictObject({
    ...auditFilters,
    cursor: z.string().max(512).optional(),
    limit: z.coerce.number().int().min(1).max(200, { error: 'must be at most 200' }).default(50),
  })
  .openapi('AuditQuery');
export type AuditQuery = z.infer<typeof AuditQuery>;
export const AuditCsvQuery = z
  .strictObject({
    ...auditFilters,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(AUDIT_CSV_MAX_ROWS, { error: `must be at most ${AUDIT_CSV_MAX_ROWS}` })
      .default(AUDIT_CSV_MAX_ROWS),
  })
  .openapi('AuditCsvQuery');
export type AuditCsvQuery = z.infer<typeof AuditCsvQuery>;

export const AuditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    action: AuditAction,
    actorId: z.string().nullable(),
    targetId: z.string().nullable(),
    clientIp: z.string().nullable(),
    requestId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .openapi('AuditEntry');
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = z
  .object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable(), from: z.string(), to: z.string() })
  .openapi('AuditPage');

// The operators' view of the platform's health and usage (`/api/admin/health`, `/api/admin/usage`): the status
// service answers both from its rollups (services/status/README.md#operators-health-and-usage).

const Count = z.number().int().nonnegative();
/** A month, `YYYY-MM` (UTC). */
const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month, YYYY-MM' });

/** One service's answered calls through the gateway in a window (the last hour, the last 24 hours). */
export const ServiceWindowFigures = z
  .object({
    requests: Count,
    /** Answered 400 to 499. */
    clientErrors: Count,
    /** Answered 500 or more. */
    serverErrors: Count,
    /** Mean time to the answer's end, ms (one decimal); null without calls. */
    averageMs: z.number().nonnegative().nullable(),
    /** 95th percentile, ms, from a histogram (exact to its bucket); null without calls timed by this release. */
    p95Ms: z.number().nonnegative().nullable(),
  })
  .openapi('ServiceWindowFigures');
export type ServiceWindowFigures = z.infer<typeof ServiceWindowFigures>;

export const AdminServiceHealth = z
  .object({
    /** gateway, auth, chat, voice or status. */
    name: z.string(),
    status: ServiceState,
    /** Percent of the expected heartbeats received (two decimals). */
    uptime24h: z.number().min(0).max(100),
    uptime30d: z.number().min(0).max(100),
    /** Its latest heartbeat or answered call (ISO time). */
    lastResponse: z.string().nullable(),
    lastHour: ServiceWindowFigures,
    lastDay: ServiceWindowFigures,
  })
  .openapi('AdminServiceHealth');
export type AdminServiceHealth = z.infer<typeof AdminServiceHealth>;

export const AdminHealthResponse = z
  .object({
    checkedAt: z.string(),
    overall: z.object({
      status: ServiceState,
      uptime24h: z.number().min(0).max(100),
      uptime30d: z.number().min(0).max(100),
      lastHour: ServiceWindowFigures,
      lastDay: ServiceWindowFigures,
    }),
    services: z.array(AdminServiceHealth),
    /** AI providers, speech engines, transcription, translation: `unknown` while nobody reports them. */
    parts: z.array(
      z.object({
        name: z.string(),
        status: z.enum(['operational', 'degraded', 'down', 'unknown']),
        provider: z.string(),
      }),
    ),
  })
  .openapi('AdminHealthResponse');
export type AdminHealthResponse = z.infer<typeof AdminHealthResponse>;

/** `month`: the UTC month (default the current one). */
export const AdminUsageQuery = z.strictObject({ month: Month.optional() }).openapi('AdminUsageQuery');
export type AdminUsageQuery = z.infer<typeof AdminUsageQuery>;

/** The most people and keys the usage answer lists. */
export const ADMIN_USAGE_TOP = 10;

/** Who made calls: a person's account id, or `team:<teamId>` for calls with a team's API key. */
export const AdminUsagePerson = z
  .object({
    id: z.string(),
    kind: z.enum(['person', 'team']),
    calls: Count,
    clientErrors: Count,
    serverErrors: Count,
    /** Calls counted towards the plan's monthly quota. */
    quotaCalls: Count,
  })
  .openapi('AdminUsagePerson');
export type AdminUsagePerson = z.infer<typeof AdminUsagePerson>;

export const AdminUsageKey = z
  .object({
    keyId: z.string(),
    /** Whom its calls acted as: an account id, or `team:<teamId>`. */
    callerId: z.string(),
    /** The account that created it, as auth announced it; null when not known. */
    createdBy: z.string().nullable(),
    teamId: z.string().nullable(),
    revoked: z.boolean(),
    calls: Count,
    clientErrors: Count,
    serverErrors: Count,
  })
  .openapi('AdminUsageKey');
export type AdminUsageKey = z.infer<typeof AdminUsageKey>;

export const AdminUsageResponse = z
  .object({
    month: Month,
    /** When the top lists were last brought up to date; null when nothing was counted in the month. */
    updatedAt: z.string().nullable(),
    /** Every answered API call of the month, anonymous ones included. */
    totals: z.object({
      calls: Count,
      clientErrors: Count,
      serverErrors: Count,
      quotaCalls: Count,
      /** Calls made with an API key. */
      keyCalls: Count,
      averageMs: z.number().nonnegative().nullable(),
    }),
    /** Most calls first, at most ADMIN_USAGE_TOP. Names, e-mails and plans are auth's: GET /api/admin/people/{id}. */
    people: z.array(AdminUsagePerson).max(ADMIN_USAGE_TOP),
    keys: z.array(AdminUsageKey).max(ADMIN_USAGE_TOP),
  })
  .openapi('AdminUsageResponse');
export type AdminUsageResponse = z.infer<typeof AdminUsageResponse>;
