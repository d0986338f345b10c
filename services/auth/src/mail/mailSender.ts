import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** How the notices leave: an SMTP server, `.eml` files in a folder (development), or not at all. */
export type MailDelivery = { mode: 'smtp'; url: string } | { mode: 'folder'; dir: string } | { mode: 'off' };

/**
 * SMTP_URL when set; else `.eml` files in KASA_MAIL_DIR outside production, and no e-mail in production (the
 * operator is told once at start, see README).
 */
export function mailDeliveryOf(settings: {
  SMTP_URL?: string | undefined;
  KASA_MAIL_DIR: string;
  NODE_ENV?: string | undefined;
}): MailDelivery {
  if (settings.SMTP_URL) return { mode: 'smtp', url: settings.SMTP_URL };
  if (settings.NODE_ENV === 'production') return { mode: 'off' };
  return { mode: 'folder', dir: settings.KASA_MAIL_DIR };
}

/** One e-mail, ready to go. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<…@…>`: the same for every attempt of one notice, so a mail client shows a repeat once. */
  messageId: string;
  language: string;
  /** Names the `.eml` file in the folder mode (letters, digits, `.`, `_`, `-`). */
  fileStem: string;
}

/** Where a sent e-mail went, for the log (never its content). */
export interface SentMail {
  /** The SMTP server's answer to the message (e.g. `250 OK: queued as …`), in SMTP mode. */
  response?: string;
  /** The `.eml` file written, in the folder mode. */
  file?: string;
}

/** Sends e-mails through nodemailer: over SMTP, or as `.eml` files. */
export interface MailSender {
  readonly mode: 'smtp' | 'folder';
  /** What the start-up log says of it: the SMTP host and port (never the credentials), or the folder. */
  describe(): Record<string, string | number>;
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): void;
}

/** How long an SMTP server may take to answer before a send counts as failed (and is tried again). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** The sender of a delivery mode; none when e-mail is off. */
export function createMailSender(delivery: MailDelivery): MailSender | null {
  switch (delivery.mode) {
    case 'smtp':
      return smtpSender(delivery.url);
    case 'folder':
      return folderSender(delivery.dir);
    case 'off':
      return null;
  }
}

/** Mail headers every notice carries: an automatic message (RFC 3834: no auto-replies), in the owner's language. */
function messageOf(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': mail.language },
  };
}

function smtpSender(url: string): MailSender {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  const address = new URL(url);
  return {
    mode: 'smtp',
    describe: () => ({
      mode: 'smtp',
      host: address.hostname,
      port: Number(address.port) || (address.protocol === 'smtps:' ? 465 : 587),
    }),
    async send(mail) {
      const info = await transport.sendMail(messageOf(mail));
      return { response: String(info.response ?? '') };
    },
    close: () => transport.close(),
  };
}

function folderSender(dir: string): MailSender {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'folder',
    describe: () => ({ mode: 'folder', dir }),
    async send(mail) {
      const info = await transport.sendMail(messageOf(mail));
      const file = path.join(dir, `${mail.fileStem}.eml`);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // The address and the text stay on this machine only: readable by the service's user alone.
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { file };
    },
    close: () => transport.close(),
  };
}
