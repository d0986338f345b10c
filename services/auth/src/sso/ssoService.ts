import {
  allows,
  emailDomainOf,
  requiredPlan,
  type EventActor,
  type EventData,
  type SsoErrorReason,
  type TeamSsoResponse,
  type TeamSsoSettingsRequest,
  type User,
} from '@kasa/contracts';
import {
  AuthenticationError,
  assertPlanAllows,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  PUBLISH_WAIT_MS,
  ServiceUnavailableError,
  type EventBus,
  type Logger,
} from '@kasa/service-kit';
import type { Model } from 'mongoose';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TeamService } from '../teams/teamService';
import { NoSeatsError } from '../teams/teamService';
import { toPublicUser, type UserDocument } from '../users/userModel';
import type { UserService } from '../users/userService';
import { issuerUrl, OidcFailure, type OidcClient, type OidcProviderSettings } from './oidcClient';
import type { SecretBox } from '@kasa/service-kit';
import type { SsoFlowDocument, SsoHandoffDocument } from './ssoFlowModel';
import type { SsoDomainDocument, TeamSsoDocument } from './ssoModel';

/** Every query of single sign-on gives up after this long (a sign-in must not hang on a slow database). */
const QUERY_TIME_LIMIT_MS = 5_000;
/** How long a started sign-in may take at the provider. */
const FLOW_TTL_MS = 10 * 60_000;
/** How long the web app has to exchange the callback's code for its token. */
const HANDOFF_TTL_MS = 60_000;
/** Used or expired flows and hand-offs are deleted this long after they expire. */
const PRUNE_AFTER_MS = 60 * 60_000;
const DUPLICATE_KEY = 11000;

export interface SsoServiceDeps {
  settings: Model<TeamSsoDocument>;
  domains: Model<SsoDomainDocument>;
  flows: Model<SsoFlowDocument>;
  handoffs: Model<SsoHandoffDocument>;
  users: Model<UserDocument>;
  userService: Pick<UserService, 'createWithoutPassword' | 'recordSignIn' | 'announceSignIn'>;
  teams: Pick<TeamService, 'membershipOf' | 'joinBySso' | 'teamIdentity'>;
  oidc: OidcClient;
  /** Null in production without AUTH_SECRETS_KEY: single sign-on is then refused (503). */
  secrets: SecretBox | null;
  bus: Pick<EventBus, 'publishWithin'>;
  logger: Logger;
  /** `<public URL>/api/auth/sso/callback`: the redirect URI every team registers at its provider. */
  redirectUri: string;
  allowHttpIssuers: boolean;
  production: boolean;
  now?: () => Date;
}

/** A callback that did not sign anyone in: the reason the sign-in page shows. */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: SsoErrorReason,
    readonly userId: string | null = null,
  ) {
    super(`single sign-on refused: ${reason}`);
    this.name = 'SsoRefusal';
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const randomToken = () => randomBytes(32).toString('base64url');
const secretAad = (teamId: string) => `team:${teamId}:sso-client-secret`;
const verifierAad = (flowId: string) => `sso-flow:${flowId}:pkce-verifier`;

/**
 * Single sign-on per team (OpenID Connect, Enterprise). The team's owner names the provider and the e-mail domains it
 * covers; a person of those domains starts at `start` (the team found by their address's domain), is sent to the
 * provider, comes back to `callback` (state, browser binding, PKCE and nonce checked; the ID token verified by
 * oidcClient.ts), and the web app exchanges the one-time code for the same token as a password sign-in (`complete`).
 */
export class SsoService {
  private readonly now: () => Date;

  constructor(private readonly deps: SsoServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Where providers send people back: `<public URL>/api/auth/sso/callback`. */
  get redirectUri(): string {
    return this.deps.redirectUri;
  }

  /** The team's settings for its owner (the secret only as "set"), and the redirect URI to register. */
  async view(userId: string): Promise<TeamSsoResponse> {
    const teamId = await this.ownersTeam(userId);
    const doc = await this.deps.settings.findById(teamId).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    return { sso: doc ? this.toSettings(doc) : null, redirectUri: this.deps.redirectUri };
  }

  /**
   * Saves the team's single sign-on after asking the issuer for its discovery document (400 when it does not answer).
   * Domains are claimed one at a time (`sso_domains._id`): one another team holds is a 409 naming it, and what this
   * save claimed is given back.
   */
  async configure(actor: EventActor, input: TeamSsoSettingsRequest, requestId?: string): Promise<TeamSsoResponse> {
    const teamId = await this.ownersTeam(actor.userId);
    const secrets = this.secretBox();
    issuerUrl(input.issuer, this.deps);
    const existing = await this.deps.settings.findById(teamId).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    const secret =
      input.clientSecret ??
      (existing?.clientSecretSealed ? secrets.open(existing.clientSecretSealed, secretAad(teamId)) : null);
    if (!secret) throw new InputError('clientSecret is required the first time', { field: 'clientSecret' });
    const version = (existing?.version ?? 0) + 1;
    await this.deps.oidc.check({
      teamId,
      version,
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecret: secret,
    });

    const claimed = await this.claimDomains(teamId, input.domains, input.requireSso);
    const fields = {
      issuer: input.issuer,
      clientId: input.clientId,
      // A new secret is sealed for this team; without one the stored one stays as it is.
      clientSecretSealed:
        input.clientSecret !== undefined
          ? secrets.seal(input.clientSecret, secretAad(teamId))
          : (existing?.clientSecretSealed ?? null),
      domains: input.domains,
      requireSso: input.requireSso,
      updatedBy: actor.userId,
    };
    try {
      if (existing) {
        const saved = await this.deps.settings.updateOne(
          { _id: teamId, version: existing.version },
          { $set: fields, $inc: { version: 1 } },
        );
        if (saved.matchedCount !== 1) throw new ConflictError('The settings changed while this was saved. Try again.');
      } else {
        await this.deps.settings.create({ _id: teamId, version: 1, ...fields }).catch((err: unknown) => {
          if ((err as { code?: number }).code === DUPLICATE_KEY)
            throw new ConflictError('The settings changed while this was saved. Try again.');
          throw err;
        });
      }
    } catch (err) {
      await this.releaseDomains(teamId, claimed);
      throw err;
    }
    // The domains kept follow the new requirement; those dropped are given back.
    await this.deps.domains.updateMany(
      { teamId, _id: { $in: input.domains } },
      { $set: { requireSso: input.requireSso } },
      { maxTimeMS: QUERY_TIME_LIMIT_MS },
    );
    await this.deps.domains.deleteMany({ teamId, _id: { $nin: input.domains } }, { maxTimeMS: QUERY_TIME_LIMIT_MS });
    await this.announce(
      'auth.team.sso_configured',
      {
        teamId,
        actor,
        issuer: input.issuer,
        clientId: input.clientId,
        domains: input.domains,
        requireSso: input.requireSso,
        secretChanged: input.clientSecret !== undefined,
        at: this.now().toISOString(),
      },
      requestId,
    );
    return this.view(actor.userId);
  }

  /** Removes the team's single sign-on: its domains sign in with passwords again. */
  async remove(actor: EventActor, requestId?: string): Promise<void> {
    const teamId = await this.ownersTeam(actor.userId);
    const doc = await this.deps.settings.findOneAndDelete({ _id: teamId }, { maxTimeMS: QUERY_TIME_LIMIT_MS }).lean();
    if (!doc) throw new NotFoundError('This team has no single sign-on.');
    await this.deps.domains.deleteMany({ teamId }, { maxTimeMS: QUERY_TIME_LIMIT_MS });
    await this.announce(
      'auth.team.sso_removed',
      { teamId, actor, domains: doc.domains, at: this.now().toISOString() },
      requestId,
    );
  }

  /** Whether the address's domain must sign in through its organisation (password sign-in is then refused). */
  async requiredFor(email: string): Promise<boolean> {
    const domain = emailDomainOf(email);
    if (!domain) return false;
    const doc = await this.deps.domains.findById(domain, { requireSso: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    return doc?.requireSso === true;
  }

  /**
   * Starts a sign-in for the address: the provider's URL to send the browser to, and the browser-binding secret the
   * router puts in the httpOnly `kasa_sso` cookie. 404 when no team signs in with the address's domain.
   */
  async start(email: string): Promise<{ redirectUrl: string; binding: string }> {
    const domain = emailDomainOf(email);
    const claim = await this.deps.domains.findById(domain).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    const doc = claim ? await this.deps.settings.findById(claim.teamId).maxTimeMS(QUERY_TIME_LIMIT_MS).lean() : null;
    if (!claim || !doc) {
      throw new NotFoundError(
        `No organisation signs in with single sign-on for ${domain}. Sign in with your password instead.`,
      );
    }
    // The team's plan (its owner's) must still have teams: an Enterprise contract that ended ends its SSO too.
    const team = await this.deps.teams.teamIdentity(claim.teamId);
    if (!team || !allows(team.tier, 'teams')) {
      throw new NotAllowedError(
        'Your organisation’s single sign-on is not available on its current plan. Ask your team’s owner.',
        { requiredPlan: requiredPlan('teams') },
      );
    }
    const secrets = this.secretBox();
    const state = randomToken();
    const nonce = randomToken();
    const codeVerifier = randomToken();
    const binding = randomToken();
    const flowId = sha256(state);
    const now = this.now();
    await this.deps.flows.create({
      _id: flowId,
      teamId: claim.teamId,
      ssoVersion: doc.version,
      verifierSealed: secrets.seal(codeVerifier, verifierAad(flowId)),
      nonce,
      bindingHash: sha256(binding),
      email,
      expiresAt: new Date(now.getTime() + FLOW_TTL_MS),
      usedAt: null,
      createdAt: now,
    });
    const url = await this.deps.oidc
      .authorizationUrl(this.providerSettings(doc, secrets), {
        redirectUri: this.deps.redirectUri,
        state,
        nonce,
        codeVerifier,
      })
      .catch((err: unknown) => {
        if (err instanceof OidcFailure)
          throw new ServiceUnavailableError('Your organisation’s sign-in service did not answer. Try again later.');
        throw err;
      });
    url.searchParams.set('login_hint', email);
    return { redirectUrl: url.toString(), binding };
  }

  /**
   * The provider sent the browser back. Uses the flow up (once), checks the browser binding, has the code exchanged
   * and the ID token verified, then finds, joins or makes the account, and answers a one-time code for the web app.
   * Throws SsoRefusal with the reason to show; each refusal is an `auth.user.sign_in_failed` event.
   */
  async callback(
    callbackUrl: URL,
    binding: string | undefined,
    context: { requestId?: string; clientIp?: string },
  ): Promise<{ code: string }> {
    let email = '';
    try {
      const state = callbackUrl.searchParams.get('state');
      if (!state || state.length > 200) throw new SsoRefusal('invalid_state');
      const flowId = sha256(state);
      const now = this.now();
      const flow = await this.deps.flows
        .findOneAndUpdate(
          { _id: flowId, usedAt: null, expiresAt: { $gt: now } },
          { $set: { usedAt: now } },
          { new: false, maxTimeMS: QUERY_TIME_LIMIT_MS },
        )
        .lean();
      if (!flow) throw new SsoRefusal('invalid_state');
      email = flow.email;
      if (!binding || !sameSecret(sha256(binding), flow.bindingHash)) throw new SsoRefusal('invalid_state');
      const secrets = this.secretBox();
      const doc = await this.deps.settings.findById(flow.teamId).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
      if (!doc) throw new SsoRefusal('invalid_state');
      const identity = await this.deps.oidc
        .exchange(this.providerSettings(doc, secrets), callbackUrl, {
          state,
          nonce: flow.nonce,
          codeVerifier: secrets.open(flow.verifierSealed, verifierAad(flowId)),
        })
        .catch((err: unknown) => {
          if (err instanceof OidcFailure) throw new SsoRefusal(err.reason);
          throw err;
        });
      if (!identity.email || identity.emailVerified === false) throw new SsoRefusal('email_not_verified');
      email = identity.email;
      const domain = emailDomainOf(identity.email);
      const claim = await this.deps.domains.findById(domain).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
      if (!doc.domains.includes(domain) || claim?.teamId !== flow.teamId) throw new SsoRefusal('domain_not_in_team');
      const { userId, created } = await this.accountFor(identity.email, flow.teamId, context.requestId);
      const code = randomToken();
      await this.deps.handoffs.create({
        _id: sha256(code),
        userId,
        created,
        expiresAt: new Date(this.now().getTime() + HANDOFF_TTL_MS),
        usedAt: null,
      });
      return { code };
    } catch (err) {
      if (err instanceof SsoRefusal) {
        this.deps.userService.announceSignIn(
          'auth.user.sign_in_failed',
          {
            userId: err.userId,
            email: (email || 'unknown').slice(0, 254),
            method: 'sso',
            reason: err.reason === 'account_suspended' ? 'suspended' : `sso_${err.reason}`,
            at: this.now().toISOString(),
            ...(context.clientIp ? { clientIp: context.clientIp } : {}),
          },
          context.requestId,
        );
      }
      throw err;
    }
  }

  /** Exchanges the callback's one-time code (once, within 60 s) for the account it signed in. */
  async complete(code: string, context: { requestId?: string; clientIp?: string }): Promise<User> {
    const now = this.now();
    const handoff = await this.deps.handoffs
      .findOneAndUpdate(
        { _id: sha256(code), usedAt: null, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
        { new: false, maxTimeMS: QUERY_TIME_LIMIT_MS },
      )
      .lean();
    if (!handoff) throw new AuthenticationError('This sign-in has expired or was already used. Sign in again.');
    const doc = await this.deps.users.findById(handoff.userId).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
    if (!doc) throw new AuthenticationError('This account no longer exists.');
    if (doc.suspendedAt) {
      throw new NotAllowedError(
        'This account is suspended, so it cannot sign in. Contact the people who run this Kasa to have it restored.',
        { reason: 'account_suspended' },
      );
    }
    this.deps.userService.recordSignIn(doc._id.toString(), context.requestId, context.clientIp, 'sso');
    return toPublicUser(doc);
  }

  /** Deletes flows and hand-offs an hour after they expired (used or not). */
  async pruneExpired(): Promise<number> {
    const before = new Date(this.now().getTime() - PRUNE_AFTER_MS);
    const [flows, handoffs] = await Promise.all([
      this.deps.flows.deleteMany({ expiresAt: { $lt: before } }, { maxTimeMS: QUERY_TIME_LIMIT_MS }),
      this.deps.handoffs.deleteMany({ expiresAt: { $lt: before } }, { maxTimeMS: QUERY_TIME_LIMIT_MS }),
    ]);
    return flows.deletedCount + handoffs.deletedCount;
  }

  /**
   * The account of a verified address in the team: one already in it; one without a team joins it; a new person gets
   * an account without a password that joins it (removed again when no seat is left).
   */
  private async accountFor(
    email: string,
    teamId: string,
    requestId?: string,
  ): Promise<{ userId: string; created: boolean }> {
    const existing = await this.deps.users
      .findOne({ email }, { teamId: 1, suspendedAt: 1 })
      .maxTimeMS(QUERY_TIME_LIMIT_MS)
      .lean();
    if (existing) {
      const userId = existing._id.toString();
      if (existing.suspendedAt) throw new SsoRefusal('account_suspended', userId);
      if (existing.teamId === teamId) return { userId, created: false };
      if (existing.teamId) throw new SsoRefusal('account_in_other_team', userId);
      await this.join(userId, teamId, requestId);
      return { userId, created: false };
    }
    const account = await this.deps.userService.createWithoutPassword(email, requestId);
    try {
      await this.join(account.user.id, teamId, requestId);
    } catch (err) {
      await account.discard();
      if (err instanceof SsoRefusal) throw new SsoRefusal(err.reason);
      throw err;
    }
    await account.announce();
    return { userId: account.user.id, created: true };
  }

  private async join(userId: string, teamId: string, requestId?: string): Promise<void> {
    try {
      await this.deps.teams.joinBySso(userId, teamId, requestId);
    } catch (err) {
      if (err instanceof NoSeatsError) throw new SsoRefusal('no_seats', userId);
      // Joined another team meanwhile (the conditional claim of users.teamId said no).
      if (err instanceof ConflictError) throw new SsoRefusal('account_in_other_team', userId);
      throw err;
    }
  }

  /** The caller's team when they own it and its plan has teams (Enterprise); 403 otherwise, 404 without a team. */
  private async ownersTeam(userId: string): Promise<string> {
    const membership = await this.deps.teams.membershipOf(userId);
    if (!membership) throw new NotFoundError('You are not in a team. Create one (Enterprise plan) first.');
    if (membership.role !== 'owner') throw new NotAllowedError("Only the team's owner can manage single sign-on.");
    assertPlanAllows(
      membership.tier,
      'teams',
      'Single sign-on is part of the Enterprise plan. Upgrade to Enterprise to set it up.',
      { requiredPlan: requiredPlan('teams') },
    );
    return membership.teamId;
  }

  /** Claims the domains the team does not hold yet, one at a time; undoes them all when one is another team's. */
  private async claimDomains(teamId: string, domains: string[], requireSso: boolean): Promise<string[]> {
    const claimed: string[] = [];
    for (const domain of domains) {
      try {
        await this.deps.domains.create({ _id: domain, teamId, requireSso });
        claimed.push(domain);
      } catch (err) {
        if ((err as { code?: number }).code !== DUPLICATE_KEY) {
          await this.releaseDomains(teamId, claimed);
          throw err;
        }
        const holder = await this.deps.domains.findById(domain, { teamId: 1 }).maxTimeMS(QUERY_TIME_LIMIT_MS).lean();
        if (holder?.teamId === teamId) continue;
        await this.releaseDomains(teamId, claimed);
        throw new ConflictError(`${domain} already signs in through another organisation's single sign-on.`, {
          field: 'domains',
          domain,
        });
      }
    }
    return claimed;
  }

  private async releaseDomains(teamId: string, domains: string[]): Promise<void> {
    if (domains.length === 0) return;
    await this.deps.domains.deleteMany({ teamId, _id: { $in: domains } }, { maxTimeMS: QUERY_TIME_LIMIT_MS });
  }

  private providerSettings(doc: TeamSsoDocument, secrets: SecretBox): OidcProviderSettings {
    return {
      teamId: doc._id,
      version: doc.version,
      issuer: doc.issuer,
      clientId: doc.clientId,
      clientSecret: doc.clientSecretSealed ? secrets.open(doc.clientSecretSealed, secretAad(doc._id)) : null,
    };
  }

  private secretBox(): SecretBox {
    if (!this.deps.secrets) {
      throw new ServiceUnavailableError(
        'Single sign-on is not available on this installation yet: its operator must set AUTH_SECRETS_KEY.',
      );
    }
    return this.deps.secrets;
  }

  private toSettings(doc: TeamSsoDocument): NonNullable<TeamSsoResponse['sso']> {
    return {
      issuer: doc.issuer,
      clientId: doc.clientId,
      clientSecret: doc.clientSecretSealed ? 'set' : 'unset',
      domains: doc.domains,
      requireSso: doc.requireSso,
      redirectUri: this.deps.redirectUri,
      updatedAt: doc.updatedAt.toISOString(),
    };
  }

  /** Settings events wait for the broker's confirm at most PUBLISH_WAIT_MS; one it did not confirm is logged. */
  private async announce<T extends 'auth.team.sso_configured' | 'auth.team.sso_removed'>(
    type: T,
    data: EventData<T>,
    requestId?: string,
  ): Promise<void> {
    const confirmed = await this.deps.bus.publishWithin(type, data, PUBLISH_WAIT_MS, {
      ...(requestId !== undefined ? { requestId } : {}),
    });
    if (!confirmed) this.deps.logger.warn({ type, teamId: data.teamId }, 'single sign-on event not published');
  }
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
