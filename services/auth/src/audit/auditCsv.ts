import type { AuditEntryView } from './auditLog';

export const AUDIT_CSV_HEADER = 'time,action,actor,target,client_address,request_id,details\r\n';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; a cell a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@`, tab, carriage return first) is prefixed with `'`, since entries carry text people
 * typed (reasons, e-mail addresses).
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** An entry as one CSV line; `details` as compact JSON. */
export function auditCsvLine(entry: AuditEntryView): string {
  const details = Object.keys(entry.details).length ? JSON.stringify(entry.details) : '';
  return (
    [entry.at, entry.action, entry.actorId, entry.targetId, entry.clientIp, entry.requestId, details]
      .map(csvCell)
      .join(',') + '\r\n'
  );
}
