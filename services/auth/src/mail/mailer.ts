import type { KasaEvent } from '@kasa/contracts';
import type { EventBus, Logger } from '@kasa/service-kit';
import { isValidObjectId, type Model } from 'mongoose';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguagePreferenceDocument } from '../preferences/languagePreferenceModel';
import type { UserDocument } from '../users/userModel';
import type { MailSender } from './mailSender';
import { renderNotice } from './noticeMessage';

/** Waits between the attempts of one send: three attempts in all, then the event is dead-lettered. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000];

/** A send that failed for good (its attempts are spent, or the server refused the message itself). */
export class MailNotSentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailNotSentError';
  }
}

/** What the mailer reads and where it sends. */
export interface MailerDeps {
  /** null: e-mail is off (production without SMTP_URL): each notice is acknowledged with a warning. */
  sender: MailSender | null;
  /** MAIL_FROM, e.g. `Kasa <no-reply@kasa.example>`. */
  from: string;
  users: Model<UserDocument>;
  languages: Model<LanguagePreferenceDocument>;
  logger: Logger;
  /** Where people reach Kasa (links of notices stored before they carried theirs). */
  publicUrl: string;
  /** Waits between attempts; DEFAULT_RETRY_DELAYS_MS unless given. */
  retryDelaysMs?: readonly number[];
}

/**
 * The consumer of `auth.email.requested`: each notice becomes one e-mail in the account's language, sent through
 * nodemailer. The bus hands it each event once (its processed-event store skips an id already handled, and a handler
 * that throws dead-letters the message rather than requeueing it), so the retries of a failed send happen here: a
 * temporary failure (connection, timeout, a 4xx answer) is tried again after each of `retryDelaysMs`, then the
 * event goes to the dead-letter queue; a message the server refuses for good (5xx) goes there at once. Addresses
 * and texts are never logged.
 */
export class Mailer {
  private readonly logger: Logger;
  private readonly retryDelaysMs: readonly number[];
  private readonly stopping = new AbortController();

  constructor(private readonly deps: MailerDeps) {
    this.logger = deps.logger.child({ component: 'mailer' });
    this.retryDelaysMs = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  /** Says once how notices leave (or that they do not). */
  announce(): void {
    if (this.deps.sender) this.logger.info(this.deps.sender.describe(), 'account notices are e-mailed');
    else
      this.logger.warn(
        'e-mail is off: SMTP_URL is not set, so account notices (sign-in, registration, billing) are not sent',
      );
  }

  /** Stops waiting between attempts (shutdown): a send still failing then goes to the dead-letter queue. */
  stop(): void {
    this.stopping.abort();
  }

  async handle(event: KasaEvent<'auth.email.requested'>): Promise<void> {
    const { data } = event;
    const log = { eventId: event.id, notice: data.notice };
    const sender = this.deps.sender;
    if (!sender) {
      this.logger.warn(log, 'e-mail is off (SMTP_URL is not set): account notice not sent');
      return;
    }
    const user = isValidObjectId(data.userId)
      ? await this.deps.users.findById(data.userId, { username: 1 }).lean()
      : null;
    if (!user) {
      this.logger.info(log, 'the account is gone: account notice not sent');
      return;
    }
    const preference = await this.deps.languages.findOne({ userId: data.userId }, { language: 1 }).lean();
    const message = renderNotice(data, {
      language: preference?.language ?? null,
      name: user.username,
      publicUrl: this.deps.publicUrl,
    });
    const mail = {
      from: this.deps.from,
      to: data.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      language: message.language,
      messageId: messageIdOf(event.id, this.deps.from),
      fileStem: fileStemOf(event.id, data.notice, data.occurredAt),
    };
    const delays = [...this.retryDelaysMs];
    for (let attempt = 1; ; attempt += 1) {
      try {
        const sent = await sender.send(mail);
        const where = sent.file ? { file: sent.file } : { response: withoutAddresses(sent.response ?? '') };
        this.logger.info({ ...log, language: message.language, attempt, ...where }, 'account notice e-mailed');
        return;
      } catch (err) {
        const failure = describeFailure(err);
        const delay = delays.shift();
        if (failure.permanent || delay === undefined || this.stopping.signal.aborted) {
          throw new MailNotSentError(`account notice not e-mailed after ${attempt} attempt(s): ${failure.summary}`);
        }
        this.logger.warn({ ...log, attempt, retryInMs: delay, failure: failure.summary }, 'e-mail not sent; retrying');
        await sleep(delay, undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    }
  }
}

/** Subscribes the mailer on the service's durable queue (`kasa.<AUTH_CONSUMER_NAME>`), beside the audit log. */
export function subscribeMailer(bus: Pick<EventBus, 'subscribe'>, mailer: Mailer): void {
  bus.subscribe('auth.email.requested', (event) => mailer.handle(event));
}

/** A Message-ID made from the event id, the same on every attempt: `<sha256…@sender's domain>`. */
function messageIdOf(eventId: string, from: string): string {
  const domain = /@([^\s@<>]+)>?\s*$/.exec(from)?.[1] ?? 'kasa.invalid';
  return `<${createHash('sha256').update(eventId).digest('hex').slice(0, 32)}@${domain}>`;
}

/** `2026-12-07T10-05-00Z-renewal_failed-<id>`: sortable by time, safe as a file name. */
function fileStemOf(eventId: string, notice: string, occurredAt: string): string {
  const at = occurredAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${at}-${notice}-${eventId.replace(/[^A-Za-z0-9._-]/g, '_')}`.slice(0, 200);
}

/** E-mail addresses in a server's answer (a refused recipient) are replaced before anything is logged. */
const ADDRESS = /[^\s<>()[\]@,;:"]+@[^\s<>()[\]@,;:"]+/g;
const withoutAddresses = (text: string) => text.replace(ADDRESS, '<address>').slice(0, 300);

/** Why a send failed, without addresses, and whether trying again can help. */
function describeFailure(err: unknown): { summary: string; permanent: boolean } {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const parts = [
    typeof e.code === 'string' ? e.code : undefined,
    responseCode !== undefined ? String(responseCode) : undefined,
    // The command's name only (`RCPT TO`, `AUTH PLAIN`), never its argument.
    typeof e.command === 'string' ? e.command.split(/[:\s]/)[0] : undefined,
    typeof e.message === 'string' ? withoutAddresses(e.message) : undefined,
  ].filter(Boolean);
  // 5xx: the server refuses this message (or these credentials) for good; anything else may pass later.
  const permanent = responseCode !== undefined && responseCode >= 500 && responseCode < 600;
  return { summary: parts.join(' ') || 'unknown error', permanent };
}
