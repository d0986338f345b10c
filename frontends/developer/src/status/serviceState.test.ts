import { displayState, formatDuration, formatPercent, overallBadge, serviceName } from './serviceState';

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
});

describe('overallBadge', () => {
  it('says All Systems Operational only when the platform is operational', () => {
    expect(overallBadge('operational').text).toBe('All Systems Operational');
    expect(overallBadge('degraded').text).toBe('Degraded performance');
    expect(overallBadge('down').text).toBe('Service disruption');
    expect(overallBadge('maintenance').text).toBe('Status unknown');
    expect(overallBadge(undefined).text).toBe('Checking status…');
    expect(overallBadge('operational', true).text).toBe('Status unavailable');
  });
});

describe('formatting', () => {
  it('formats percentages and response times as people read them', () => {
    expect(formatPercent(99.9)).toBe('99.9%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(Number.NaN)).toBe('–');
    expect(formatDuration(812.4)).toBe('812 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
  });
});

describe('service names in words', () => {
  it('names the AI providers line and the parts of chat and voice', () => {
    expect(serviceName('ai-providers')).toBe('AI providers');
    expect(serviceName('ai:offline')).toBe('Offline knowledge base');
    expect(serviceName('ai:openai')).toBe('AI provider: openai');
    expect(serviceName('speech:espeak-ng')).toBe('Speech: espeak-ng');
    expect(serviceName('chat')).toBe('Chat & personas');
    expect(serviceName('queue')).toBe('Queue');
  });
});
