import { excerpt } from './highlight';
import type { ServiceStatus } from '@kasa/contracts';
import { healthItems } from './healthItems';
import { healthOf } from './ServiceHealth';

describe('healthOf', () => {
  it('shows operational as healthy, degraded as degraded, anything else in red under its own name', () => {
    expect(healthOf('operational')).toEqual({ label: 'healthy', tone: 'good' });
    expect(healthOf('degraded')).toEqual({ label: 'degraded', tone: 'warn' });
    expect(healthOf('down')).toEqual({ label: 'down', tone: 'bad' });
    expect(healthOf('exploded')).toEqual({ label: 'exploded', tone: 'bad' });
    expect(healthOf('')).toEqual({ label: 'unknown', tone: 'bad' });
  });
});

describe('the sidebar’s health list', () => {
  const entry = (name: string, status: string): ServiceStatus => ({
    name,
    status,
    provider: 'kasa',
    uptime: 100,
    lastResponse: null,
    requests: 0,
    errors: 0,
  });
  const snapshot = [
    entry('auth', 'operational'),
    entry('chat', 'operational'),
    entry('voice', 'operational'),
    entry('status', 'operational'),
    entry('gateway', 'operational'),
    entry('ai-providers', 'degraded'),
    entry('ai:offline', 'operational'),
    entry('speech:espeak-ng', 'operational'),
    entry('transcription', 'down'),
    entry('translation', 'degraded'),
  ];
  const shown = (services: ServiceStatus[]) =>
    Object.fromEntries(healthItems(services).map((item) => [item.label, item.status]));

  it('names what people use, never the internal services', () => {
    const labels = healthItems(snapshot).map((item) => item.label);
    expect(labels).toEqual(['Voice Service', 'Video Service', 'Translation', 'Maps & Geo', 'AI providers']);
    expect(labels.join(' ')).not.toMatch(/Accounts|Status|auth|gateway/);
  });

  it('reads each line from the real signals of the snapshot', () => {
    expect(shown(snapshot)).toEqual({
      'Voice Service': 'operational',
      'Video Service': 'operational',
      Translation: 'degraded',
      'Maps & Geo': 'operational',
      'AI providers': 'degraded',
    });
    const voiceDown = snapshot.map((s) => (s.name === 'voice' ? { ...s, status: 'down' } : s));
    expect(shown(voiceDown)).toMatchObject({
      'Voice Service': 'down',
      'Video Service': 'down',
      Translation: 'down',
      'Maps & Geo': 'down',
    });
    const noEngine = snapshot.map((s) => (s.name === 'speech:espeak-ng' ? { ...s, status: 'down' } : s));
    expect(shown(noEngine)['Voice Service']).toBe('degraded');
    const chatDown = snapshot.map((s) => (s.name === 'chat' ? { ...s, status: 'down' } : s));
    expect(shown(chatDown)['AI providers']).toBe('down');
    expect(shown([])).toEqual({
      'Voice Service': 'unknown',
      'Video Service': 'unknown',
      Translation: 'unknown',
      'Maps & Geo': 'unknown',
      'AI providers': 'unknown',
    });
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
