import { SubscriptionTier } from './auth';
import { AI_PROVIDER_CHANGES } from './aiProviders';
import { z } from './zod';

/** The topic exchange every integration event is published on; the routing key is the event type. */
export const EVENTS_EXCHANGE = 'kasa.events';
/** Dead letters of every consumer queue go through this exchange to `kasa.<consumer>.dlq`. */
export const DEAD_LETTER_EXCHANGE = 'kasa.events.dlx';

/** CloudEvents 1.0 envelope, JSON-encoded. `kasarequestid` is a CloudEvents extension attribute. */
export const CloudEventEnvelope = z.object({
  specversion: z.literal('1.0'),
  id: z.string().min(1).max(128),
  source: z.string().min(1).max(256),
  type: z.string().min(1).max(128),
  time: z.string().datetime(),
  datacontenttype: z.literal('application/json'),
  kasarequestid: z.string().max(128).optional(),
  /** W3C trace context of the work that published the event (CloudEvents' distributed tracing extension). */
  traceparent: z.string().max(64).optional(),
  data: z.unknown(),
});
export type CloudEventEnvelope = z.infer<typeof CloudEventEnvelope>;

export const UserRegisteredEvent = z.object({
  userId: z.string(),
  username: z.string(),
  subscriptionTier: SubscriptionTier,
  registeredAt: z.string().datetime(),
});
export const TokenRevokedEvent = z.object({
  userId: z.string(),
  jti: z.string(),
  /** Seconds since the epoch; a revocation need not be remembered after the token expires. */
  expiresAt: z.number().int(),
});
/**
 * Who did what an event reports and from where, for the audit log: the person acting (an operator, a team admin, the
 * account's owner) and the client address of their request. Absent when the platform itself acted (a renewal, the
 * clock, a processor's webhook).
 */
export const EventActor = z.object({
  userId: z.string().max(64),
  clientIp: z.string().max(64).optional(),
});
export type EventActor = z.infer<typeof EventActor>;
export const PlanChangedEvent = z.object({
  userId: z.string(),
  from: SubscriptionTier,
  to: SubscriptionTier,
  reference: z.string().optional(),
  /** An operator's change (or contract): who, and why. */
  actor: EventActor.optional(),
  reason: z.string().max(500).optional(),
});
/**
 * Published when an add-on pack of extra API calls is paid (the processor confirmed it): the person's quota of the
 * month `month` (UTC, `2026-12`) is raised at once by the gateway. `monthCalls` is the month's extra calls in all,
 * this pack included, so a repeated or late event never adds twice.
 */
export const CallsAddedEvent = z.object({
  userId: z.string(),
  reference: z.string(),
  addOnId: z.string(),
  calls: z.number().int().positive(),
  month: z.string().regex(/^\d{4}-\d{2}$/),
  monthCalls: z.number().int().positive(),
});
/**
 * Published after a key is stored: whose it is, so that a service needing to know (status, for the usage of a key)
 * keeps its own record instead of asking auth with someone's identity. A team key belongs to the team (`teamId`);
 * `userId` is the member who created it. Never the key itself.
 */
export const ApiKeyCreatedEvent = z.object({
  userId: z.string(),
  keyId: z.string(),
  teamId: z.string().nullable(),
  /** The key's first eight characters (`ksk_ab12`), never the key. */
  prefix: z.string().max(16),
  createdAt: z.string().datetime(),
  actor: EventActor.optional(),
});
/** Published after the revocation is stored; every gateway instance drops the key from its cache at once. */
export const ApiKeyRevokedEvent = z.object({
  userId: z.string(),
  keyId: z.string(),
  /** The key's first eight characters (`ksk_ab12`), never the key. */
  prefix: z.string().max(16),
  /** Who revoked it (the owner, a team admin); absent when a team's deletion revoked it. */
  actor: EventActor.optional(),
});
/**
 * An operator suspended the account: every gateway refuses its access tokens and API keys from this event on (and
 * auth refuses its sign-ins and keys) until `auth.user.restored`.
 */
export const UserSuspendedEvent = z.object({
  userId: z.string(),
  reason: z.string().max(500),
  actor: EventActor,
  suspendedAt: z.string().datetime(),
});
/** An operator lifted the suspension: the account's tokens and keys work again. */
export const UserRestoredEvent = z.object({
  userId: z.string(),
  reason: z.string().max(500).optional(),
  actor: EventActor,
  restoredAt: z.string().datetime(),
});
/** A successful sign-in (for the audit log and the account's last sign-in). */
export const UserSignedInEvent = z.object({
  userId: z.string(),
  method: z.enum(['password', 'sso']),
  clientIp: z.string().max(64).optional(),
  at: z.string().datetime(),
});
/**
 * A refused sign-in: a wrong password or unknown address (`invalid_credentials`), an address made to wait
 * (`throttled`), or a suspended account (`suspended`). `userId` when the address has an account.
 */
export const UserSignInFailedEvent = z.object({
  userId: z.string().nullable(),
  email: z.string().max(254),
  method: z.enum(['password', 'sso']),
  reason: z.enum([
    'invalid_credentials',
    'throttled',
    'suspended',
    // Single sign-on (services/auth/src/sso/): why the identity provider's answer was refused, or that the address's
    // domain must sign in through its organisation (`sso_required`, on a password sign-in).
    'sso_invalid_state',
    'sso_wrong_audience',
    'sso_token_expired',
    'sso_token_invalid',
    'sso_domain_not_in_team',
    'sso_email_not_verified',
    'sso_account_in_other_team',
    'sso_no_seats',
    'sso_idp_error',
    'sso_required',
  ]),
  clientIp: z.string().max(64).optional(),
  at: z.string().datetime(),
});
/** An account was given the operator role (by an operator, the setup link or the operator command) or lost it. */
export const OperatorRoleChangedEvent = z.object({
  userId: z.string(),
  operator: z.boolean(),
  /** Absent for the operator command, which runs on the machine rather than for a person. */
  actor: EventActor.optional(),
});
/**
 * A team's owner set up or changed the team's single sign-on (OpenID Connect): the provider, the client id, the e-mail
 * domains and whether they must sign in through it; `secretChanged` when a new client secret was stored (never the
 * secret itself).
 */
export const TeamSsoConfiguredEvent = z.object({
  teamId: z.string(),
  actor: EventActor,
  issuer: z.string().max(500),
  clientId: z.string().max(255),
  domains: z.array(z.string().max(253)).max(20),
  requireSso: z.boolean(),
  secretChanged: z.boolean(),
  at: z.string().datetime(),
});
/** A team's owner removed the team's single sign-on: its domains sign in with passwords again. */
export const TeamSsoRemovedEvent = z.object({
  teamId: z.string(),
  actor: EventActor,
  domains: z.array(z.string().max(253)).max(20),
  at: z.string().datetime(),
});
/**
 * An operator changed the AI provider chain (services/chat: `/api/admin/providers*`): every chat replica reloads it
 * (broadcast), auth records it in the audit log. Never a key, only whether one changed.
 */
export const AiProvidersChangedEvent = z.object({
  change: z.enum(AI_PROVIDER_CHANGES),
  /** The provider added, updated or removed; absent for a new order. */
  name: z.string().max(32).optional(),
  kind: z.string().max(40).optional(),
  keyChanged: z.boolean().optional(),
  /** The fields an update changed (names only). */
  fields: z.array(z.string().max(40)).max(20).optional(),
  /** The chain's order after the change. */
  order: z.array(z.string().max(32)).max(50),
  actor: EventActor,
  at: z.string().datetime(),
});
/** The roles a team's invitations and role changes give (there is only ever one owner). */
const TeamMemberRole = z.enum(['admin', 'member']);
/**
 * Team membership, for the audit log: each event names the team, who acted (`actor`) and the person it concerned,
 * by account id and by address (the address keeps the entry readable after the person left).
 */
export const TeamInvitationSentEvent = z.object({
  teamId: z.string(),
  invitationId: z.string(),
  /** The address invited, lower-cased; `userId` when an account uses it. */
  email: z.string().max(254),
  userId: z.string().nullable(),
  role: TeamMemberRole,
  /** Sent again to an address with an open invitation: the same invitation, renewed (its role may change). */
  renewed: z.boolean(),
  actor: EventActor,
  at: z.string().datetime(),
});
/** An owner or admin revoked an open invitation. */
export const TeamInvitationRevokedEvent = z.object({
  teamId: z.string(),
  invitationId: z.string(),
  email: z.string().max(254),
  userId: z.string().nullable(),
  actor: EventActor,
  at: z.string().datetime(),
});
/** The person invited declined the invitation (the actor is the person invited). */
export const TeamInvitationDeclinedEvent = z.object({
  teamId: z.string(),
  invitationId: z.string(),
  email: z.string().max(254),
  userId: z.string(),
  actor: EventActor,
  at: z.string().datetime(),
});
/** The owner deleted the team: its keys were revoked, its members and open invitations released. */
export const TeamDeletedEvent = z.object({
  teamId: z.string(),
  name: z.string().max(200),
  /** Members released, the owner included. */
  members: z.number().int().nonnegative(),
  actor: EventActor,
  at: z.string().datetime(),
});
/** A person joined a team: by accepting an invitation, or by signing in through the team's single sign-on. */
export const TeamMemberJoinedEvent = z.object({
  teamId: z.string(),
  userId: z.string(),
  email: z.string().max(254),
  role: TeamMemberRole,
  via: z.enum(['invitation', 'sso']),
  invitationId: z.string().optional(),
  /** The person joining. */
  actor: EventActor,
  at: z.string().datetime(),
});
/** A member left the team (`left`, the actor is the member) or an owner or admin removed them. */
export const TeamMemberRemovedEvent = z.object({
  teamId: z.string(),
  userId: z.string(),
  email: z.string().max(254),
  role: TeamMemberRole,
  left: z.boolean(),
  actor: EventActor,
  at: z.string().datetime(),
});
/** The team's owner made a member an admin, or an admin a member. */
export const TeamMemberRoleChangedEvent = z.object({
  teamId: z.string(),
  userId: z.string(),
  email: z.string().max(254),
  from: TeamMemberRole,
  to: TeamMemberRole,
  actor: EventActor,
  at: z.string().datetime(),
});
/**
 * The seats of a team changed: its owner's Enterprise contract was recorded with another number (null: no contract
 * names them, the team's own limit applies). `actor` is the operator; absent for the operator command.
 */
export const TeamSeatsChangedEvent = z.object({
  teamId: z.string(),
  ownerId: z.string(),
  from: z.number().int().positive().nullable(),
  to: z.number().int().positive().nullable(),
  actor: EventActor.optional(),
  at: z.string().datetime(),
});
/** The notices auth asks to e-mail to an account's owner. */
export const AccountNotice = z.enum([
  /** Too many wrong passwords: sign-in to the account waits (progressive delays); the owner may want to act. */
  'sign_in_throttled',
  /** Someone tried to register with the address of this account; registration answers neutrally (ADR 0008). */
  'registration_attempted',
  /** The subscription's renewal payment failed: the plan is kept until `graceUntil`, then the account is on Free. */
  'renewal_failed',
  /** The grace after a failed renewal ended: the account is on Free now (its data kept). */
  'plan_lapsed',
]);
export type AccountNotice = z.infer<typeof AccountNotice>;
/**
 * An e-mail to an account's owner, for a mailer to send. Published through an outbox (`email_notices`), so a notice
 * the broker did not confirm is sent again with the same event id: a mailer deduplicates by event id.
 */
export const EmailRequestedEvent = z.object({
  userId: z.string(),
  /** The account's address: the only recipient a notice ever has. */
  to: z.string().max(254),
  notice: AccountNotice,
  /** When what the notice reports happened. */
  occurredAt: z.string().datetime(),
  /** sign_in_throttled: until when sign-in waits at first. */
  retryAfter: z.string().datetime().optional(),
  /** renewal_failed, plan_lapsed: the plan the subscription was for. */
  planId: SubscriptionTier.optional(),
  /** renewal_failed: the plan is kept until then; plan_lapsed: when the grace ended. */
  graceUntil: z.string().datetime().optional(),
  /** Where the owner acts on the notice (Settings for billing, the pricing page, the sign-in page). */
  actionUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});
export const SessionCreatedEvent = z.object({
  sessionId: z.string(),
  userId: z.string(),
  personaId: z.string(),
  /** Added later: absent in events of older chat versions. */
  title: z.string().max(200).optional(),
  createdAt: z.string().datetime().optional(),
});
export const MessageCreatedEvent = z.object({
  sessionId: z.string(),
  userId: z.string(),
  messageId: z.string(),
  personaId: z.string(),
  role: z.enum(['user', 'assistant']),
  language: z.string().optional(),
  provider: z.string().optional(),
  tokens: z.number().int().nonnegative().optional(),
  latencyMs: z.number().nonnegative().optional(),
});
export const SpeechSynthesizedEvent = z.object({
  userId: z.string().optional(),
  language: z.string(),
  engine: z.string(),
  characters: z.number().int().nonnegative(),
  durationSeconds: z.number().nonnegative(),
});
export const VideoCompletedEvent = z.object({
  jobId: z.string(),
  userId: z.string(),
  status: z.enum(['succeeded', 'failed']),
});
export const RequestCompletedEvent = z.object({
  /**
   * The deployment the sender belongs to (KASA_DEPLOYMENT), when several share one broker (test runs side by side):
   * the status service counts only its own deployment's.
   */
  deployment: z.string().min(1).max(64).optional(),
  requests: z
    .array(
      z.object({
        route: z.string(),
        method: z.string(),
        status: z.number().int(),
        durationMs: z.number().nonnegative(),
        userId: z.string().optional(),
        apiKeyId: z.string().optional(),
        at: z.string().datetime(),
      }),
    )
    .max(1000),
});
/**
 * A person's (or a team's, `team:<teamId>`) monthly API calls reached 80 % (rounded up) or 100 % of the plan's quota
 * (plus the month's extra calls). The gateway publishes it once per threshold, from the one request whose atomic count
 * reached it; the status service turns it into the `quota.threshold_reached` webhook.
 */
export const QuotaThresholdReachedEvent = z.object({
  userId: z.string(),
  /** The API key of the call that reached it; absent for a call with an access token. */
  keyId: z.string().optional(),
  threshold: z.union([z.literal(80), z.literal(100)]),
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  /** The calendar month (UTC), `YYYY-MM`. */
  period: z.string().regex(/^\d{4}-\d{2}$/),
});
export const ServiceHeartbeatEvent = z.object({
  service: z.string(),
  /**
   * The deployment the sender belongs to (KASA_DEPLOYMENT), when several share one broker (test runs side by side):
   * the status service counts only its own deployment's.
   */
  deployment: z.string().min(1).max(64).optional(),
  instanceId: z.string(),
  version: z.string(),
  ready: z.boolean(),
  checks: z.record(z.string(), z.boolean()),
  at: z.string().datetime(),
  /**
   * Parts the service depends on and watches itself, e.g. chat's AI providers (state from their circuit breakers).
   * They never make the service itself not ready.
   */
  components: z
    .array(
      z.object({
        name: z.string().min(1).max(64),
        provider: z.string().min(1).max(64),
        state: z.enum(['operational', 'degraded', 'down']),
      }),
    )
    .max(50)
    .optional(),
});

/** Every integration event type and the schema of its `data`. Publishers and consumers validate against it. */
export const EventSchemas = {
  'auth.user.registered': UserRegisteredEvent,
  'auth.token.revoked': TokenRevokedEvent,
  'auth.user.plan_changed': PlanChangedEvent,
  'auth.user.calls_added': CallsAddedEvent,
  'auth.apikey.created': ApiKeyCreatedEvent,
  'auth.apikey.revoked': ApiKeyRevokedEvent,
  'auth.email.requested': EmailRequestedEvent,
  'auth.user.suspended': UserSuspendedEvent,
  'auth.user.restored': UserRestoredEvent,
  'auth.user.signed_in': UserSignedInEvent,
  'auth.user.sign_in_failed': UserSignInFailedEvent,
  'auth.operator.role_changed': OperatorRoleChangedEvent,
  'auth.team.sso_configured': TeamSsoConfiguredEvent,
  'auth.team.sso_removed': TeamSsoRemovedEvent,
  'auth.team.invitation_sent': TeamInvitationSentEvent,
  'auth.team.invitation_revoked': TeamInvitationRevokedEvent,
  'auth.team.invitation_declined': TeamInvitationDeclinedEvent,
  'auth.team.deleted': TeamDeletedEvent,
  'auth.team.member_joined': TeamMemberJoinedEvent,
  'auth.team.member_removed': TeamMemberRemovedEvent,
  'auth.team.member_role_changed': TeamMemberRoleChangedEvent,
  'auth.team.seats_changed': TeamSeatsChangedEvent,
  'chat.providers.changed': AiProvidersChangedEvent,
  'chat.session.created': SessionCreatedEvent,
  'chat.message.created': MessageCreatedEvent,
  'voice.speech.synthesized': SpeechSynthesizedEvent,
  'voice.video.completed': VideoCompletedEvent,
  'gateway.request.completed': RequestCompletedEvent,
  'gateway.quota.threshold_reached': QuotaThresholdReachedEvent,
  'service.heartbeat': ServiceHeartbeatEvent,
} as const;

export type EventType = keyof typeof EventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof EventSchemas)[T]>;

/** A validated event as handlers receive it. */
export interface KasaEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  source: string;
  time: string;
  requestId?: string;
  /** The publisher's W3C `traceparent`: the handler continues the same trace. */
  traceparent?: string;
  data: EventData<T>;
}

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EventSchemas, value);
}
