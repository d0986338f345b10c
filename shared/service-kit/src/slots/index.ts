export * from './concurrencySlots';
export * from './holdSlot';
