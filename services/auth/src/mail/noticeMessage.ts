import type { AccountNotice, EventData, UiLanguage } from '@kasa/contracts';
import { planName } from '@kasa/service-kit';
import { actionUrlOf } from '../notices/emailNotices';
import { fillText, mailCatalogueFor, type MailKey } from './mailCatalogues';

/** One notice as an e-mail: subject, plain text and the same text as simple HTML, in one language. */
export interface NoticeMessage {
  language: UiLanguage;
  subject: string;
  text: string;
  html: string;
}

/** What a notice reads besides its event: the account's language and name, and Kasa's public address. */
export interface NoticeContext {
  /** The account's language preference (null: none picked, English). */
  language: string | null;
  /** How the owner is greeted (the account's username). */
  name: string;
  /** Where people reach Kasa, for notices stored before they carried their link. */
  publicUrl: string;
}

const RTL_LANGUAGES: ReadonlySet<UiLanguage> = new Set(['ar']);

/**
 * The locales Intl is asked for, as the web app asks (frontends' `intlLocales`): Twi is `ak` (Akan) in CLDR, and
 * English keeps the day-month order (`14 December 2026`).
 */
function intlLocales(language: UiLanguage): string[] {
  if (language === 'tw') return ['tw', 'ak'];
  if (language === 'en') return ['en-GB'];
  return [language];
}

/** A moment as the language writes a date and time, in UTC (the owner's time zone is not known): `14 December 2026 at 10:05 UTC`. */
export function formatNoticeDate(iso: string, language: UiLanguage): string {
  const format = new Intl.DateTimeFormat(intlLocales(language), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(new Date(iso))} UTC`;
}

/** The date a notice names: the end of the grace for a failed renewal, else when it happened. */
function dateOf(data: EventData<'auth.email.requested'>): string {
  return data.notice === 'renewal_failed' && data.graceUntil ? data.graceUntil : data.occurredAt;
}

/** Renders a notice in the account's language (English when it has none Kasa ships). */
export function renderNotice(data: EventData<'auth.email.requested'>, context: NoticeContext): NoticeMessage {
  const { language, texts } = mailCatalogueFor(context.language);
  const url = data.actionUrl ?? actionUrlOf(data.notice, context.publicUrl);
  const values: Record<string, string> = {
    name: context.name,
    email: data.to,
    date: formatNoticeDate(dateOf(data), language),
    plan: planName(data.planId ?? 'pro'),
    url,
  };
  const text = (key: MailKey) => fillText(texts[key], values);
  const notice: AccountNotice = data.notice;
  const subject = text(`${notice}.subject`);
  const paragraphs = [text('common.greeting'), ...text(`${notice}.body`).split(/\n{2,}/), text('common.signature')];
  const footer = text('common.footer');
  return {
    language,
    subject,
    text: `${paragraphs.join('\n\n')}\n\n-- \n${footer}\n`,
    html: htmlOf({ language, subject, paragraphs, footer, url }),
  };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The same text as a plain HTML page: escaped paragraphs, the action's address as a link, right to left for Arabic. */
function htmlOf(parts: {
  language: UiLanguage;
  subject: string;
  paragraphs: string[];
  footer: string;
  url: string;
}): string {
  const link = escapeHtml(parts.url);
  const paragraph = (value: string) =>
    `<p>${escapeHtml(value).split(link).join(`<a href="${link}">${link}</a>`).replace(/\n/g, '<br>')}</p>`;
  const dir = RTL_LANGUAGES.has(parts.language) ? 'rtl' : 'ltr';
  return [
    '<!doctype html>',
    `<html lang="${parts.language}" dir="${dir}">`,
    `<head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; max-width: 40rem;">',
    ...parts.paragraphs.map(paragraph),
    '<hr style="border: none; border-top: 1px solid #ddd;">',
    `<p style="font-size: 0.85em; color: #555;">${escapeHtml(parts.footer)}</p>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
