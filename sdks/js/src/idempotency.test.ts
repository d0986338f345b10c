import { newIdempotencyKey } from './idempotency';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newIdempotencyKey', () => {
  it('makes a different version 4 UUID each time', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(UUID_V4);
  });

  it('makes one from random bytes where crypto.randomUUID is missing (a page served over plain HTTP)', () => {
    // randomUUID lives on Crypto.prototype: an own property of undefined hides it, deleting it shows it again.
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(globalThis.crypto.randomUUID).toBeUndefined();
      const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(100);
      for (const key of keys) expect(key).toMatch(UUID_V4);
    } finally {
      delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof globalThis.crypto.randomUUID).toBe('function');
  });
});
