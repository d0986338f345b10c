import { translatorFor } from '../i18n/testing';
import frenchPanels from '../i18n/panels/fr.json';
import { displayState, overallBadge, serviceName, STATE_LABELS } from './serviceState';

const t = translatorFor();

describe('displayState', () => {
  it('keeps the three known states and calls anything else unknown', () => {
    expect(['operational', 'degraded', 'down', 'healthy', '', null].map(displayState)).toEqual([
      'operational',
      'degraded',
      'down',
      'unknown',
      'unknown',
      'unknown',
    ]);
  });

  it('has a word for every state', () => {
    expect(Object.values(STATE_LABELS).map((id) => t(id))).toEqual(['Operational', 'Degraded', 'Down', 'Unknown']);
  });
});

describe('overallBadge', () => {
  const badge = (status: string | undefined, failed?: boolean) => t(overallBadge(status, failed).id);

  it('says All Systems Operational only when the platform is operational', () => {
    expect(badge('operational')).toBe('All Systems Operational');
    expect(badge('degraded')).toBe('Degraded performance');
    expect(badge('down')).toBe('Service disruption');
    expect(badge('maintenance')).toBe('Status unknown');
    expect(badge(undefined)).toBe('Checking status…');
    expect(badge('operational', true)).toBe('Status unavailable');
    expect(overallBadge('operational', true).state).toBe('unknown');
  });
});

describe('service names in words', () => {
  it('names the AI providers line and the parts of chat and voice', () => {
    expect(serviceName(t, 'ai-providers')).toBe('AI providers');
    expect(serviceName(t, 'ai:offline')).toBe('Offline knowledge base');
    expect(serviceName(t, 'ai:openai')).toBe('AI provider: openai');
    expect(serviceName(t, 'speech:espeak-ng')).toBe('Speech: espeak-ng');
    expect(serviceName(t, 'chat')).toBe('Chat & personas');
    expect(serviceName(t, 'queue')).toBe('Queue');
  });

  it('names them in the interface language, keeping the provider’s own name', () => {
    const fr = translatorFor('fr', frenchPanels);
    expect(serviceName(fr, 'ai:openai')).toMatch(/openai$/);
    expect(serviceName(fr, 'ai:openai')).not.toBe('AI provider: openai');
    expect(serviceName(fr, 'chat')).not.toBe('Chat & personas');
  });
});
