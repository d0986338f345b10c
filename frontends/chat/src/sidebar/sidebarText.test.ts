import { excerpt } from './MessageSearch';
import { healthOf, serviceName } from './ServiceHealth';

describe('healthOf', () => {
  it('shows operational as healthy, degraded as degraded, anything else in red under its own name', () => {
    expect(healthOf('operational')).toEqual({ label: 'healthy', tone: 'good' });
    expect(healthOf('degraded')).toEqual({ label: 'degraded', tone: 'warn' });
    expect(healthOf('down')).toEqual({ label: 'down', tone: 'bad' });
    expect(healthOf('exploded')).toEqual({ label: 'exploded', tone: 'bad' });
    expect(healthOf('')).toEqual({ label: 'unknown', tone: 'bad' });
  });

  it('names the services for people', () => {
    expect(serviceName('voice')).toBe('Voice & Translation');
    expect(serviceName('billing')).toBe('Billing');
  });
});

describe('excerpt', () => {
  it('shows the part of a long message around the match', () => {
    const text = `${'intro '.repeat(20)}the word akwaaba is here ${'outro '.repeat(20)}`;
    const shown = excerpt(text, 'AKWAABA');
    expect(shown).toContain('akwaaba');
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(excerpt('short\n\ntext', 'short')).toBe('short text');
  });
});
