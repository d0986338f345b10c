import { InputError } from '@kasa/service-kit';
import { AUDIT_DEFAULT_SPAN_MS, auditWindow, decodeAuditCursor, encodeAuditCursor } from './auditLog';

describe('audit queries', () => {
  const now = new Date('2026-12-07T12:00:00.000Z');

  it('reads the last 30 days when no window is given', () => {
    const window = auditWindow(undefined, undefined, now);
    expect(window.to).toEqual(now);
    expect(now.getTime() - window.from.getTime()).toBe(AUDIT_DEFAULT_SPAN_MS);
  });

  it('refuses a window that runs backwards or spans more than 366 days', () => {
    expect(() => auditWindow('2026-12-08T00:00:00Z', '2026-12-07T00:00:00Z', now)).toThrow(InputError);
    expect(() => auditWindow('2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z', now)).toThrow(/366 days/);
    expect(auditWindow('2026-01-01T00:00:00Z', '2026-12-01T00:00:00Z', now).from).toEqual(
      new Date('2026-01-01T00:00:00Z'),
    );
  });

  it('pages by a cursor it made, and refuses any other', () => {
    const cursor = encodeAuditCursor({ at: now, _id: 'evt-1' });
    expect(decodeAuditCursor(cursor)).toEqual({ at: now.toISOString(), id: 'evt-1' });
    expect(() => decodeAuditCursor('not-a-cursor')).toThrow(/cursor/);
    expect(() => decodeAuditCursor(Buffer.from('{"at":"x","id":1}').toString('base64url'))).toThrow(InputError);
  });
});
