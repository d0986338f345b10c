import { daysBefore, fullWhen, groupByDate, groupKindOf, itemWhen, monthHeading } from './dateGroups';

/** A local date and time (the groups follow the person's calendar, not UTC). */
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);
const item = (id: string, date: Date) => ({ id, createdAt: date.toISOString() });

describe('the conversation list’s date groups', () => {
  const now = at(2026, 11, 24, 9, 30);

  it('counts calendar days, not 24-hour spans', () => {
    expect(daysBefore(at(2026, 11, 24, 0, 5), now)).toBe(0);
    expect(daysBefore(at(2026, 11, 23, 23, 55), now)).toBe(1);
    expect(daysBefore(at(2026, 11, 22, 23, 55), now)).toBe(2);
    // Across the end of daylight saving time (a 25-hour day where it applies) still whole days.
    expect(daysBefore(at(2026, 10, 20), at(2026, 11, 3))).toBe(14);
  });

  it('puts each date in Today, Yesterday, Previous 7 days, Previous 30 days or its month', () => {
    expect(groupKindOf(at(2026, 11, 24, 0, 1), now)).toBe('today');
    expect(groupKindOf(at(2026, 11, 24, 18), now)).toBe('today'); // a clock a little ahead still reads as today
    expect(groupKindOf(at(2026, 11, 23, 23, 59), now)).toBe('yesterday');
    expect(groupKindOf(at(2026, 11, 22), now)).toBe('week');
    expect(groupKindOf(at(2026, 11, 17), now)).toBe('week');
    expect(groupKindOf(at(2026, 11, 16), now)).toBe('month');
    expect(groupKindOf(at(2026, 10, 25), now)).toBe('month');
    expect(groupKindOf(at(2026, 10, 24), now)).toBe('older');
  });

  it('groups a newest-first list in order, one group per older month, keeping the order inside each', () => {
    const sessions = [
      item('a', at(2026, 11, 24, 9)),
      item('b', at(2026, 11, 24, 8)),
      item('c', at(2026, 11, 23, 22)),
      item('d', at(2026, 11, 20)),
      item('e', at(2026, 11, 2)),
      item('f', at(2026, 10, 10)),
      item('g', at(2026, 10, 1)),
      item('h', at(2025, 12, 31)),
    ];
    const groups = groupByDate(sessions, (s) => s.createdAt, now);
    expect(groups.map((g) => [g.key, g.items.map((s) => s.id).join('')])).toEqual([
      ['today', 'ab'],
      ['yesterday', 'c'],
      ['week', 'd'],
      ['month', 'e'],
      ['2026-10', 'fg'],
      ['2025-12', 'h'],
    ]);
    expect(groups[4]!.month).toEqual(at(2026, 10, 1, 0));
    expect(groups[0]!.month).toBeNull();
  });

  it('orders the groups by date even when the items come unordered, and skips unreadable dates', () => {
    const groups = groupByDate(
      [item('old', at(2026, 1, 5)), item('new', at(2026, 11, 24)), { id: 'bad', createdAt: 'not a date' }],
      (s) => s.createdAt,
      now,
    );
    expect(groups.map((g) => g.key)).toEqual(['today', '2026-01']);
  });

  it('is empty for no sessions', () => {
    expect(groupByDate([], (s: { createdAt: string }) => s.createdAt, now)).toEqual([]);
  });
});

describe('dates in the interface language', () => {
  const now = at(2026, 11, 24, 9, 30);

  it('names an older month with its year', () => {
    expect(monthHeading(at(2026, 10, 1), 'en')).toBe('October 2026');
    expect(monthHeading(at(2026, 10, 1), 'fr')).toBe('octobre 2026');
  });

  it('shows the time for today and yesterday, the date otherwise, with the year only for another year', () => {
    expect(itemWhen(at(2026, 11, 24, 14, 5), 'today', 'en', now)).toMatch(/^2:05\sPM$/);
    expect(itemWhen(at(2026, 11, 24, 14, 5), 'today', 'fr', now)).toBe('14:05');
    expect(itemWhen(at(2026, 11, 23, 8, 0), 'yesterday', 'en', now)).toMatch(/^8:00\sAM$/);
    expect(itemWhen(at(2026, 11, 20), 'week', 'en', now)).toBe('Nov 20');
    expect(itemWhen(at(2026, 11, 20), 'week', 'fr', now)).toBe('20 nov.');
    expect(itemWhen(at(2025, 12, 31), 'older', 'en', now)).toBe('Dec 31, 2025');
  });

  it('formats every interface language without failing (Intl falls back where it has no data)', () => {
    for (const locale of ['en', 'fr', 'sw', 'ha', 'yo', 'tw', 'ee', 'gaa', 'ar']) {
      expect(itemWhen(at(2026, 11, 20), 'week', locale, now)).toMatch(/20|٢٠/);
      expect(monthHeading(at(2026, 10, 1), locale)).toMatch(/2026|٢٠٢٦/);
      expect(fullWhen(at(2026, 11, 20, 10, 15), locale).length).toBeGreaterThan(8);
    }
  });
});
