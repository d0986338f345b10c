import type { AuditFilters } from '../api/adminApi';

/**
 * What an audit entry records: @kasa/contracts' AUDIT_ACTIONS, listed here so that zod stays out of the bundle (the
 * test beside this file checks that none is missing). Strings rather than AuditAction: a console deployed before
 * the API learns a new action still shows it, under its own name.
 */
export const AUDIT_ACTION_LIST: readonly string[] = [
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
  'team.invitation_sent',
  'team.invitation_revoked',
  'team.member_joined',
  'team.member_removed',
  'team.member_left',
  'team.role_changed',
  'team.seats_changed',
  'team.invitation_declined',
  'team.deleted',
  'ai_provider.added',
  'ai_provider.updated',
  'ai_provider.removed',
  'ai_provider.reordered',
];

/** The longest window the audit log reads at once (the API refuses more). */
export const AUDIT_MAX_DAYS = 366;

/** The filter form as the operator fills it in and as the address keeps it: days are `YYYY-MM-DD` (UTC). */
export interface AuditForm {
  actor: string;
  target: string;
  action: string;
  from: string;
  to: string;
}

export const EMPTY_FORM: AuditForm = { actor: '', target: '', action: '', from: '', to: '' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isAction = (value: string) => AUDIT_ACTION_LIST.includes(value);

/** The form as the address (`?actor=…&from=2026-11-01`) says it; anything unreadable is left empty. */
export function formFromSearch(search: URLSearchParams): AuditForm {
  const day = (name: string) => {
    const value = search.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  const action = search.get('action') ?? '';
  return {
    actor: (search.get('actor') ?? '').trim(),
    target: (search.get('target') ?? '').trim(),
    action: isAction(action) ? action : '',
    from: day('from'),
    to: day('to'),
  };
}

/** The address's query for a form: only the fields filled in. */
export function searchFromForm(form: AuditForm): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    const text = value.trim();
    if (text) search.set(name, text);
  }
  return search;
}

/** Why a form cannot be asked for. */
export type AuditFormProblem = 'range' | 'window';

/**
 * The API's filters for a form: `from` is the start of its day and `to` the end of its day (UTC). A window that
 * ends before it starts, or is longer than the API reads, is a problem to show instead.
 */
export function filtersFromForm(form: AuditForm): { filters: AuditFilters } | { problem: AuditFormProblem } {
  const filters: AuditFilters = {};
  if (form.actor.trim()) filters.actor = form.actor.trim();
  if (form.target.trim()) filters.target = form.target.trim();
  if (form.action) filters.action = form.action;
  if (form.from) filters.from = `${form.from}T00:00:00.000Z`;
  if (form.to) filters.to = `${form.to}T23:59:59.999Z`;
  if (filters.from && filters.to) {
    const span = Date.parse(filters.to) - Date.parse(filters.from);
    if (span < 0) return { problem: 'range' };
    if (span > AUDIT_MAX_DAYS * 86_400_000) return { problem: 'window' };
  }
  return { filters };
}

/** What a CSV export of the window is saved as: `kasa-audit-2026-11-01-2026-11-30.csv` (or `kasa-audit.csv`). */
export function csvFileName(form: AuditForm): string {
  const days = [form.from, form.to].filter(Boolean);
  return days.length ? `kasa-audit-${days.join('-')}.csv` : 'kasa-audit.csv';
}
