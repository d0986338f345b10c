import { averageSessionLength, countBars, statusLabel } from './summaries';

describe('countBars', () => {
  it('orders by count, drops zeros and gives each share of the total', () => {
    expect(countBars({ ticha: 2, kasa: 5, merla: 3, dokta: 0 }, 10, (id) => id.toUpperCase())).toEqual([
      { label: 'KASA', value: 5, note: '50%' },
      { label: 'MERLA', value: 3, note: '30%' },
      { label: 'TICHA', value: 2, note: '20%' },
    ]);
    expect(countBars({ en: 8, tw: 2 })).toEqual([
      { label: 'en', value: 8, note: '80%' },
      { label: 'tw', value: 2, note: '20%' },
    ]);
    expect(countBars({})).toEqual([]);
  });
});

describe('averageSessionLength', () => {
  it('is messages per session with one decimal', () => {
    expect(averageSessionLength(10, 3)).toBe('3.3');
    expect(averageSessionLength(0, 0)).toBe('0.0');
  });
});

it('names HTTP statuses', () => {
  expect(statusLabel(200)).toBe('200 OK');
  expect(statusLabel(418)).toBe('418');
});
