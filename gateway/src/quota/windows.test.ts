import { cachedMonthWindow, minuteWindow, monthWindow } from './windows';

describe('counting windows', () => {
  it('cuts minutes on the minute', () => {
    const at = Date.UTC(2026, 6, 14, 9, 30, 45, 500);
    const minute = minuteWindow(at);
    expect(minute.startMs).toBe(Date.UTC(2026, 6, 14, 9, 30));
    expect(minute.endMs).toBe(Date.UTC(2026, 6, 14, 9, 31));
    expect(minuteWindow(minute.endMs - 1).id).toBe(minute.id);
    expect(minuteWindow(minute.endMs).id).not.toBe(minute.id);
  });

  it('cuts months at 00:00 UTC on the 1st, across the year end', () => {
    expect(monthWindow(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toEqual({
      id: '2026-12',
      startMs: Date.UTC(2026, 11, 1),
      endMs: Date.UTC(2027, 0, 1),
    });
    expect(monthWindow(Date.UTC(2027, 0, 1)).id).toBe('2027-01');
    expect(monthWindow(Date.UTC(2028, 1, 29, 12)).endMs).toBe(Date.UTC(2028, 2, 1));
  });

  it('recomputes the cached month only when the month changes', () => {
    const monthOf = cachedMonthWindow();
    const june = monthOf(Date.UTC(2026, 5, 30, 23, 59));
    expect(monthOf(Date.UTC(2026, 5, 2))).toBe(june);
    expect(monthOf(Date.UTC(2026, 6, 1)).id).toBe('2026-07');
  });
});
