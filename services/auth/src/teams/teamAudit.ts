import {
  TEAM_AUDIT_ACTIONS,
  type TeamAuditAction,
  type TeamAuditEntry,
  type TeamAuditPage,
  type TeamAuditQuery,
} from '@kasa/contracts';
import { NotFoundError } from '@kasa/service-kit';
import { auditWindow, type AuditEntryView, type AuditLog } from '../audit/auditLog';
import type { TeamService } from './teamService';

const teamActions: ReadonlySet<string> = new Set(TEAM_AUDIT_ACTIONS);
const isTeamAction = (action: string): action is TeamAuditAction => teamActions.has(action);

/** An entry as a team's owner and admins read it: the client address stays with the operators' log. */
function toTeamEntry(entry: AuditEntryView & { action: TeamAuditAction }): TeamAuditEntry {
  const { clientIp: _clientIp, ...rest } = entry;
  return rest;
}

/**
 * The audit log of the caller's team, for its owner and admins: newest first, a page at a time, within a bounded
 * window (the audit log's own limits and query time limit). To a plain member, or to someone in no team, it does not
 * exist (404), like another person's object; another team's entries are never in the query.
 */
export async function teamAuditPage(
  deps: { teams: Pick<TeamService, 'membershipOf'>; audit: Pick<AuditLog, 'page'> },
  userId: string,
  query: TeamAuditQuery,
): Promise<TeamAuditPage> {
  const membership = await deps.teams.membershipOf(userId);
  if (!membership || (membership.role !== 'owner' && membership.role !== 'admin')) {
    throw new NotFoundError();
  }
  const window = auditWindow(query.from, query.to);
  const page = await deps.audit.page(
    { ...window, teamId: membership.teamId, ...(query.action ? { action: query.action } : {}) },
    { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) },
  );
  return {
    // Every entry with a team is one of the team actions (auditEntries.ts); the guard keeps the answer to its schema.
    entries: page.entries.flatMap((entry) =>
      isTeamAction(entry.action) ? [toTeamEntry({ ...entry, action: entry.action })] : [],
    ),
    nextCursor: page.nextCursor,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
  };
}
