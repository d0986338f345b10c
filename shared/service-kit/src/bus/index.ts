export { EventBus, PUBLISH_WAIT_MS, type EventBusOptions, type EventHandler } from './EventBus';
export { InvalidEventError, createEnvelope, decodeEvent, type DecodeResult } from './envelope';
export {
  createMongoProcessedEventStore,
  type PrunableProcessedEventStore,
  type ProcessedEventStore,
} from './processedEvents';
export { consumerQueues, type ConsumerQueues } from './topology';
