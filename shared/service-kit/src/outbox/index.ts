export { Outbox, type OutboxEntry, type OutboxOptions, type OutboxState, type RepublishReport } from './outbox';
