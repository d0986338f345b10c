import type { KasaEvent } from '@kasa/contracts';
import { auditEntryOf, type AuditedEvent } from './auditEntries';

const event = <T extends AuditedEvent>(type: T, data: KasaEvent<T>['data']): KasaEvent<T> => ({
  id: `evt-${type}`,
  type,
  source: 'kasa/auth',
  time: '2026-12-07T10:00:00.000Z',
  requestId: 'req-1',
  data,
});

describe('auditEntryOf', () => {
  it('records a suspension with the operator, the person, the reason, the address and the request', () => {
    const entry = auditEntryOf(
      event('auth.user.suspended', {
        userId: 'person',
        reason: 'spam',
        actor: { userId: 'operator', clientIp: '203.0.113.7' },
        suspendedAt: '2026-12-07T09:59:59.000Z',
      }),
    );
    expect(entry).toEqual({
      _id: 'evt-auth.user.suspended',
      at: new Date('2026-12-07T09:59:59.000Z'),
      action: 'user.suspended',
      actorId: 'operator',
      targetId: 'person',
      clientIp: '203.0.113.7',
      requestId: 'req-1',
      details: { reason: 'spam' },
    });
  });

  it('records an operator’s plan change with its reason, and a billing change without an actor', () => {
    const byOperator = auditEntryOf(
      event('auth.user.plan_changed', {
        userId: 'person',
        from: 'free',
        to: 'pro',
        reference: 'KASA-ABCDEFGHIJ',
        actor: { userId: 'operator' },
        reason: 'goodwill',
      }),
    );
    expect(byOperator).toMatchObject({
      action: 'plan.changed',
      actorId: 'operator',
      targetId: 'person',
      details: { from: 'free', to: 'pro', reason: 'goodwill', reference: 'KASA-ABCDEFGHIJ' },
    });
    const byBilling = auditEntryOf(event('auth.user.plan_changed', { userId: 'person', from: 'pro', to: 'free' }));
    expect(byBilling).toMatchObject({ actorId: null, clientIp: null, details: { from: 'pro', to: 'free' } });
  });

  it('records a refused sign-in against the account, or the address when nobody uses it', () => {
    const base = { email: 'ama@example.com', method: 'password', at: '2026-12-07T10:00:00.000Z' } as const;
    expect(
      auditEntryOf(event('auth.user.sign_in_failed', { ...base, userId: 'person', reason: 'invalid_credentials' })),
    ).toMatchObject({ action: 'sign_in.failed', actorId: null, targetId: 'person' });
    expect(
      auditEntryOf(event('auth.user.sign_in_failed', { ...base, userId: null, reason: 'invalid_credentials' })),
    ).toMatchObject({ targetId: 'email:ama@example.com', details: { reason: 'invalid_credentials' } });
  });

  it('records keys by their prefix only, with whoever created or revoked them', () => {
    const created = auditEntryOf(
      event('auth.apikey.created', {
        userId: 'person',
        keyId: 'key',
        teamId: null,
        prefix: 'ksk_ab12',
        createdAt: '2026-12-07T10:00:00.000Z',
        actor: { userId: 'person', clientIp: '::1' },
      }),
    );
    expect(created).toMatchObject({
      action: 'apikey.created',
      actorId: 'person',
      clientIp: '::1',
      details: { keyId: 'key', prefix: 'ksk_ab12' },
    });
    const revoked = auditEntryOf(event('auth.apikey.revoked', { userId: 'person', keyId: 'key', prefix: 'ksk_ab12' }));
    expect(revoked).toMatchObject({ action: 'apikey.revoked', actorId: null, targetId: 'person' });
  });

  it('names operator grants and removals apart', () => {
    const granted = event('auth.operator.role_changed', { userId: 'p', operator: true, actor: { userId: 'o' } });
    const removed = event('auth.operator.role_changed', { userId: 'p', operator: false, actor: { userId: 'o' } });
    expect(auditEntryOf(granted).action).toBe('operator.granted');
    expect(auditEntryOf(removed).action).toBe('operator.revoked');
  });

  it('records a team’s single sign-on changes against the team, with the owner and never a secret', () => {
    const configured = auditEntryOf(
      event('auth.team.sso_configured', {
        teamId: 'team-1',
        actor: { userId: 'owner', clientIp: '203.0.113.9' },
        issuer: 'https://login.acme.example',
        clientId: 'kasa',
        domains: ['acme.example'],
        requireSso: true,
        secretChanged: true,
        at: '2026-12-07T09:00:00.000Z',
      }),
    );
    expect(configured).toMatchObject({
      at: new Date('2026-12-07T09:00:00.000Z'),
      action: 'sso.configured',
      actorId: 'owner',
      targetId: 'team:team-1',
      clientIp: '203.0.113.9',
      details: {
        issuer: 'https://login.acme.example',
        domains: ['acme.example'],
        requireSso: true,
        secretChanged: true,
      },
    });
    const removed = auditEntryOf(
      event('auth.team.sso_removed', {
        teamId: 'team-1',
        actor: { userId: 'owner' },
        domains: ['acme.example'],
        at: '2026-12-07T09:30:00.000Z',
      }),
    );
    expect(removed).toMatchObject({ action: 'sso.removed', actorId: 'owner', targetId: 'team:team-1' });
    expect(configured.teamId).toBe('team-1');
  });

  it('records team membership against the person concerned, naming the team and who acted', () => {
    const actor = { userId: 'owner', clientIp: '203.0.113.9' };
    const at = '2026-12-07T09:00:00.000Z';
    const invited = auditEntryOf(
      event('auth.team.invitation_sent', {
        teamId: 'team-1',
        invitationId: 'inv-1',
        email: 'kwame@example.com',
        userId: null,
        role: 'admin',
        renewed: false,
        actor,
        at,
      }),
    );
    expect(invited).toEqual({
      _id: 'evt-auth.team.invitation_sent',
      at: new Date(at),
      action: 'team.invitation_sent',
      actorId: 'owner',
      targetId: 'email:kwame@example.com',
      clientIp: '203.0.113.9',
      requestId: 'req-1',
      details: { teamId: 'team-1', invitationId: 'inv-1', email: 'kwame@example.com', role: 'admin' },
      teamId: 'team-1',
    });
    const revoked = auditEntryOf(
      event('auth.team.invitation_revoked', {
        teamId: 'team-1',
        invitationId: 'inv-1',
        email: 'kwame@example.com',
        userId: 'kwame',
        actor,
        at,
      }),
    );
    expect(revoked).toMatchObject({ action: 'team.invitation_revoked', targetId: 'kwame', teamId: 'team-1' });
    const joined = auditEntryOf(
      event('auth.team.member_joined', {
        teamId: 'team-1',
        userId: 'kwame',
        email: 'kwame@example.com',
        role: 'member',
        via: 'invitation',
        invitationId: 'inv-2',
        actor: { userId: 'kwame' },
        at,
      }),
    );
    expect(joined).toMatchObject({
      action: 'team.member_joined',
      actorId: 'kwame',
      targetId: 'kwame',
      details: { teamId: 'team-1', via: 'invitation', invitationId: 'inv-2', role: 'member' },
      teamId: 'team-1',
    });
    const removal = { teamId: 'team-1', userId: 'kwame', email: 'kwame@example.com', role: 'member' as const, at };
    expect(auditEntryOf(event('auth.team.member_removed', { ...removal, left: false, actor })).action).toBe(
      'team.member_removed',
    );
    expect(
      auditEntryOf(event('auth.team.member_removed', { ...removal, left: true, actor: { userId: 'kwame' } })),
    ).toMatchObject({ action: 'team.member_left', actorId: 'kwame', targetId: 'kwame' });
    const promoted = auditEntryOf(
      event('auth.team.member_role_changed', {
        teamId: 'team-1',
        userId: 'kwame',
        email: 'kwame@example.com',
        from: 'member',
        to: 'admin',
        actor,
        at,
      }),
    );
    expect(promoted).toMatchObject({ action: 'team.role_changed', details: { from: 'member', to: 'admin' } });
  });

  it('records a team’s new seats against its owner, with the operator, or no actor for the command', () => {
    const seats = { teamId: 'team-1', ownerId: 'owner', from: null, to: 25, at: '2026-12-07T09:00:00.000Z' };
    expect(auditEntryOf(event('auth.team.seats_changed', { ...seats, actor: { userId: 'op' } }))).toMatchObject({
      action: 'team.seats_changed',
      actorId: 'op',
      targetId: 'owner',
      details: { teamId: 'team-1', from: null, to: 25 },
      teamId: 'team-1',
    });
    expect(auditEntryOf(event('auth.team.seats_changed', seats))).toMatchObject({ actorId: null });
  });

  it('records changes to the AI provider chain against the provider, never a key', () => {
    const added = auditEntryOf(
      event('chat.providers.changed', {
        change: 'added',
        name: 'openai',
        kind: 'openai',
        keyChanged: true,
        order: ['openai'],
        actor: { userId: 'operator', clientIp: '203.0.113.7' },
        at: '2026-12-07T09:59:59.000Z',
      }),
    );
    expect(added).toEqual({
      _id: 'evt-chat.providers.changed',
      at: new Date('2026-12-07T09:59:59.000Z'),
      action: 'ai_provider.added',
      actorId: 'operator',
      targetId: 'provider:openai',
      clientIp: '203.0.113.7',
      requestId: 'req-1',
      details: { kind: 'openai', keyChanged: true, order: ['openai'] },
    });
    const reordered = auditEntryOf(
      event('chat.providers.changed', {
        change: 'reordered',
        order: ['groq', 'openai'],
        actor: { userId: 'operator' },
        at: '2026-12-07T09:59:59.000Z',
      }),
    );
    expect(reordered).toMatchObject({ action: 'ai_provider.reordered', targetId: 'providers', clientIp: null });
  });
});
