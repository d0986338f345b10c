import { translatorFor } from '../i18n/testing';
import { displayState, isAccountId, monthFromSearch, recentMonths, serviceName } from './healthView';

describe('the health section’s words and months', () => {
  it('names the services and parts, and keeps names it does not know', () => {
    const t = translatorFor('en');
    expect(serviceName(t, 'chat')).toBe('Chat & personas');
    expect(serviceName(t, 'ai-providers')).toBe('AI providers');
    expect(serviceName(t, 'ai:openai')).toBe('AI provider: openai');
    expect(serviceName(t, 'speech:espeak-ng')).toBe('Speech: espeak-ng');
    expect(serviceName(t, 'billing')).toBe('billing');
  });

  it('shows an unexpected state as unknown', () => {
    expect(displayState('operational')).toBe('operational');
    expect(displayState('degraded')).toBe('degraded');
    expect(displayState('down')).toBe('down');
    expect(displayState('maintenance')).toBe('unknown');
    expect(displayState(undefined)).toBe('unknown');
  });

  it('offers the months back from the current one, across a year', () => {
    expect(recentMonths(new Date('2026-02-15T10:00:00Z'), 4)).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
    // The last instant of a month in UTC is still that month, whatever the browser's time zone.
    expect(recentMonths(new Date('2026-03-31T23:59:59.999Z'), 1)).toEqual(['2026-03']);
  });

  it('reads the month from the address, and falls back to the current one', () => {
    const now = new Date('2026-03-10T00:00:00Z');
    expect(monthFromSearch(new URLSearchParams('month=2026-01'), now)).toBe('2026-01');
    expect(monthFromSearch(new URLSearchParams(''), now)).toBe('2026-03');
    expect(monthFromSearch(new URLSearchParams('month=2026-13'), now)).toBe('2026-03');
    expect(monthFromSearch(new URLSearchParams('month=2026-04'), now)).toBe('2026-03');
    expect(monthFromSearch(new URLSearchParams('month=march'), now)).toBe('2026-03');
  });

  it('tells account ids from team callers', () => {
    expect(isAccountId('64b7f0c2a1b2c3d4e5f60718')).toBe(true);
    expect(isAccountId('team:64b7f0c2a1b2c3d4e5f60718')).toBe(false);
  });
});
