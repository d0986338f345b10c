import type { EventBus, Logger } from '@kasa/service-kit';
import { AUDITED_EVENTS, auditEntryOf } from './auditEntries';
import type { AuditLog } from './auditLog';

/**
 * The audit consumer: each audited event, once validated by the bus, becomes one entry (the bus skips ids it has
 * handled, and the entry's id is the event's, so a redelivery adds nothing). Requests never wait for it: actions
 * publish their events and the log is written here, off their critical path.
 */
export function subscribeAuditLog(bus: Pick<EventBus, 'subscribe'>, log: AuditLog, logger: Logger): void {
  for (const type of AUDITED_EVENTS) {
    bus.subscribe(type, async (event) => {
      await log.record(auditEntryOf(event));
      logger.debug({ eventId: event.id, type }, 'audit entry recorded');
    });
  }
}
