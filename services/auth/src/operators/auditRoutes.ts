import { AuditCsvQuery, AuditQuery } from '@kasa/contracts';
import { parseInput } from '@kasa/service-kit';
import type { Router } from 'express';
import { auditCsvLine, AUDIT_CSV_HEADER } from '../audit/auditCsv';
import { auditWindow, type AuditFilter, type AuditLog } from '../audit/auditLog';

function filterOf(query: AuditQuery | AuditCsvQuery): AuditFilter {
  return {
    ...auditWindow(query.from, query.to),
    ...(query.actor ? { actorId: query.actor } : {}),
    ...(query.target ? { targetId: query.target } : {}),
    ...(query.action ? { action: query.action } : {}),
  };
}

/**
 * The audit log in the operators' API: pages newest first, and the same filters as a streamed CSV file (bounded rows,
 * written as the database cursor reads, with the socket's back-pressure).
 */
export function registerAuditRoutes(router: Router, audit: AuditLog): void {
  router.get('/api/admin/audit', async (req, res) => {
    const query = parseInput(AuditQuery, req.query, 'query');
    const filter = filterOf(query);
    const page = await audit.page(filter, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) });
    res.json({ ...page, from: filter.from.toISOString(), to: filter.to.toISOString() });
  });

  router.get('/api/admin/audit.csv', async (req, res) => {
    const query = parseInput(AuditCsvQuery, req.query, 'query');
    const filter = filterOf(query);
    const stop = new AbortController();
    res.on('close', () => stop.abort());
    const rows = audit.stream(filter, query.limit, stop.signal);
    // The first row is read before the headers go out, so a failing query still answers with the JSON error body.
    const first = await rows.next();
    const day = (d: Date) => d.toISOString().slice(0, 10);
    res
      .status(200)
      .set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="kasa-audit-${day(filter.from)}-${day(filter.to)}.csv"`,
      })
      .write(AUDIT_CSV_HEADER);
    try {
      for (let row = first; !row.done; row = await rows.next()) {
        if (stop.signal.aborted) break;
        if (!res.write(auditCsvLine(row.value))) {
          await new Promise((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
    } catch (err) {
      // Too late for a status: cut the answer so the client sees a broken file, not a silently short one.
      res.destroy(err as Error);
      return;
    } finally {
      await rows.return(undefined);
    }
    res.end();
  });
}
