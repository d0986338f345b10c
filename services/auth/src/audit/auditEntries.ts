import type { EventType, KasaEvent } from '@kasa/contracts';
import type { AuditEntryDocument } from './auditModel';

/** The events the audit log is made from. */
export const AUDITED_EVENTS = [
  'auth.user.suspended',
  'auth.user.restored',
  'auth.user.plan_changed',
  'auth.apikey.created',
  'auth.apikey.revoked',
  'auth.user.signed_in',
  'auth.user.sign_in_failed',
  'auth.operator.role_changed',
  'auth.team.sso_configured',
  'auth.team.sso_removed',
  'auth.team.invitation_sent',
  'auth.team.invitation_revoked',
  'auth.team.member_joined',
  'auth.team.member_removed',
  'auth.team.member_role_changed',
  'auth.team.seats_changed',
  'auth.team.invitation_declined',
  'auth.team.deleted',
  'chat.providers.changed',
] as const satisfies readonly EventType[];
export type AuditedEvent = (typeof AUDITED_EVENTS)[number];

const actorFields = (actor: { userId: string; clientIp?: string } | undefined) => ({
  actorId: actor?.userId ?? null,
  clientIp: actor?.clientIp ?? null,
});

/** The audit entry an event makes: who, whom, when, from where, under which request, and what else it said. */
export function auditEntryOf(event: KasaEvent<AuditedEvent>): AuditEntryDocument {
  const base = { _id: event.id, at: new Date(event.time), requestId: event.requestId ?? null };
  const e = event as KasaEvent;
  switch (e.type) {
    case 'auth.user.suspended': {
      const d = e.data as KasaEvent<'auth.user.suspended'>['data'];
      return {
        ...base,
        at: new Date(d.suspendedAt),
        action: 'user.suspended',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: { reason: d.reason },
      };
    }
    case 'auth.user.restored': {
      const d = e.data as KasaEvent<'auth.user.restored'>['data'];
      return {
        ...base,
        at: new Date(d.restoredAt),
        action: 'user.restored',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: d.reason ? { reason: d.reason } : {},
      };
    }
    case 'auth.user.plan_changed': {
      const d = e.data as KasaEvent<'auth.user.plan_changed'>['data'];
      return {
        ...base,
        action: 'plan.changed',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: {
          from: d.from,
          to: d.to,
          ...(d.reference ? { reference: d.reference } : {}),
          ...(d.reason ? { reason: d.reason } : {}),
        },
      };
    }
    case 'auth.apikey.created': {
      const d = e.data as KasaEvent<'auth.apikey.created'>['data'];
      return {
        ...base,
        at: new Date(d.createdAt),
        action: 'apikey.created',
        targetId: d.userId,
        ...actorFields(d.actor ?? { userId: d.userId }),
        details: { keyId: d.keyId, prefix: d.prefix, ...(d.teamId ? { teamId: d.teamId } : {}) },
        ...(d.teamId ? { teamId: d.teamId } : {}),
      };
    }
    case 'auth.apikey.revoked': {
      const d = e.data as KasaEvent<'auth.apikey.revoked'>['data'];
      return {
        ...base,
        action: 'apikey.revoked',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: { keyId: d.keyId, prefix: d.prefix },
      };
    }
    case 'auth.user.signed_in': {
      const d = e.data as KasaEvent<'auth.user.signed_in'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'sign_in.succeeded',
        actorId: d.userId,
        targetId: d.userId,
        clientIp: d.clientIp ?? null,
        details: { method: d.method },
      };
    }
    case 'auth.user.sign_in_failed': {
      const d = e.data as KasaEvent<'auth.user.sign_in_failed'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'sign_in.failed',
        // Nobody proved who they are: the attempt is recorded against the account (or the address) it aimed at.
        actorId: null,
        targetId: d.userId ?? `email:${d.email}`,
        clientIp: d.clientIp ?? null,
        details: { method: d.method, reason: d.reason, email: d.email },
      };
    }
    case 'auth.operator.role_changed': {
      const d = e.data as KasaEvent<'auth.operator.role_changed'>['data'];
      return {
        ...base,
        action: d.operator ? 'operator.granted' : 'operator.revoked',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: {},
      };
    }
    // A team's single sign-on: the target is the team (`team:<id>`); never the client secret, only whether it changed.
    case 'auth.team.sso_configured': {
      const d = e.data as KasaEvent<'auth.team.sso_configured'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'sso.configured',
        targetId: `team:${d.teamId}`,
        ...actorFields(d.actor),
        details: {
          teamId: d.teamId,
          issuer: d.issuer,
          clientId: d.clientId,
          domains: d.domains,
          requireSso: d.requireSso,
          secretChanged: d.secretChanged,
        },
        teamId: d.teamId,
      };
    }
    case 'auth.team.sso_removed': {
      const d = e.data as KasaEvent<'auth.team.sso_removed'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'sso.removed',
        targetId: `team:${d.teamId}`,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, domains: d.domains },
        teamId: d.teamId,
      };
    }
    // Team membership: the target is the person (their account, or `email:<address>` for an invitation to an address
    // nobody uses); the team is named in `teamId` and in the details, with the person's address.
    case 'auth.team.invitation_sent': {
      const d = e.data as KasaEvent<'auth.team.invitation_sent'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.invitation_sent',
        targetId: d.userId ?? `email:${d.email}`,
        ...actorFields(d.actor),
        details: {
          teamId: d.teamId,
          invitationId: d.invitationId,
          email: d.email,
          role: d.role,
          ...(d.renewed ? { renewed: true } : {}),
        },
        teamId: d.teamId,
      };
    }
    case 'auth.team.invitation_revoked': {
      const d = e.data as KasaEvent<'auth.team.invitation_revoked'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.invitation_revoked',
        targetId: d.userId ?? `email:${d.email}`,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, invitationId: d.invitationId, email: d.email },
        teamId: d.teamId,
      };
    }
    case 'auth.team.member_joined': {
      const d = e.data as KasaEvent<'auth.team.member_joined'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.member_joined',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: {
          teamId: d.teamId,
          email: d.email,
          role: d.role,
          via: d.via,
          ...(d.invitationId ? { invitationId: d.invitationId } : {}),
        },
        teamId: d.teamId,
      };
    }
    case 'auth.team.member_removed': {
      const d = e.data as KasaEvent<'auth.team.member_removed'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: d.left ? 'team.member_left' : 'team.member_removed',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, email: d.email, role: d.role },
        teamId: d.teamId,
      };
    }
    case 'auth.team.member_role_changed': {
      const d = e.data as KasaEvent<'auth.team.member_role_changed'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.role_changed',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, email: d.email, from: d.from, to: d.to },
        teamId: d.teamId,
      };
    }
    // The seats come with the owner's Enterprise contract: the owner is the person concerned, the operator the actor.
    case 'auth.team.seats_changed': {
      const d = e.data as KasaEvent<'auth.team.seats_changed'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.seats_changed',
        targetId: d.ownerId,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, from: d.from, to: d.to },
        teamId: d.teamId,
      };
    }
    case 'auth.team.invitation_declined': {
      const d = e.data as KasaEvent<'auth.team.invitation_declined'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.invitation_declined',
        targetId: d.userId,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, invitationId: d.invitationId, email: d.email },
        teamId: d.teamId,
      };
    }
    // A deleted team: the target is the team, as for its single sign-on.
    case 'auth.team.deleted': {
      const d = e.data as KasaEvent<'auth.team.deleted'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: 'team.deleted',
        targetId: `team:${d.teamId}`,
        ...actorFields(d.actor),
        details: { teamId: d.teamId, name: d.name, members: d.members },
        teamId: d.teamId,
      };
    }
    // The AI provider chain (chat): never a key, only whether it changed; the order after the change.
    case 'chat.providers.changed': {
      const d = e.data as KasaEvent<'chat.providers.changed'>['data'];
      return {
        ...base,
        at: new Date(d.at),
        action: `ai_provider.${d.change}`,
        targetId: d.name ? `provider:${d.name}` : 'providers',
        ...actorFields(d.actor),
        details: {
          ...(d.kind ? { kind: d.kind } : {}),
          ...(d.keyChanged !== undefined ? { keyChanged: d.keyChanged } : {}),
          ...(d.fields ? { fields: d.fields } : {}),
          order: d.order,
        },
      };
    }
    default:
      throw new Error(`${e.type} is not an audited event`);
  }
}
