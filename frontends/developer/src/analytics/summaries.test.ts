import { averageSessionLength, countBars, statusLabel } from './summaries';

describe('countBars', () => {
  it('orders by count, drops zeros and gives each share of the total', () => {
    expect(countBars({ ticha: 2, kasa: 5, merla: 3, dokta: 0 }, 10, (id) => id.toUpperCase())).toEqual([
      { label: 'KASA', value: 5, share: 50 },
      { label: 'MERLA', value: 3, share: 30 },
      { label: 'TICHA', value: 2, share: 20 },
    ]);
    expect(countBars({ en: 8, tw: 2 })).toEqual([
      { label: 'en', value: 8, share: 80 },
      { label: 'tw', value: 2, share: 20 },
    ]);
    expect(countBars({})).toEqual([]);
  });

  it('gives no share when there is no total to share', () => {
    expect(countBars({ kasa: 1 }, 0)).toEqual([{ label: 'kasa', value: 1, share: undefined }]);
  });
});

describe('averageSessionLength', () => {
  it('is messages per session, 0 without sessions', () => {
    expect(averageSessionLength(10, 4)).toBe(2.5);
    expect(averageSessionLength(0, 0)).toBe(0);
  });
});

it('names HTTP statuses', () => {
  expect(statusLabel(200)).toBe('200 OK');
  expect(statusLabel(418)).toBe('418');
});
