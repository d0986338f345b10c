import type { ServiceStatus } from '@kasa/contracts';
import { AI_PROVIDERS_ENTRY, NO_AI_PROVIDER, aiProvidersSummary } from './aiProviders';

const part = (name: string, status: string): ServiceStatus => ({
  name: `ai:${name}`,
  status,
  provider: name,
  uptime: 100,
  lastResponse: '2026-11-24T10:00:00.000Z',
  requests: 0,
  errors: 0,
});

describe('the AI providers line of the status snapshot', () => {
  it('says "no AI provider configured" (degraded) when chat has only its offline knowledge base', () => {
    expect(aiProvidersSummary([part('offline', 'operational')])).toMatchObject({
      name: AI_PROVIDERS_ENTRY,
      status: 'degraded',
      provider: NO_AI_PROVIDER,
    });
    expect(NO_AI_PROVIDER).toMatch(/^no AI provider configured/);
  });

  it('is operational while one configured provider is, naming them', () => {
    const summary = aiProvidersSummary([
      part('openai', 'down'),
      part('anthropic', 'operational'),
      part('offline', 'operational'),
    ]);
    expect(summary).toMatchObject({ status: 'operational', provider: 'openai, anthropic' });
  });

  it('is degraded when every configured provider is failing (the offline answers still come)', () => {
    expect(aiProvidersSummary([part('openai', 'down'), part('offline', 'operational')])).toMatchObject({
      status: 'degraded',
      provider: 'openai',
    });
  });

  it('is unknown while chat is down, and absent when chat never reported its providers', () => {
    expect(aiProvidersSummary([part('openai', 'unknown'), part('offline', 'unknown')])?.status).toBe('unknown');
    expect(aiProvidersSummary([])).toBeUndefined();
    expect(aiProvidersSummary([{ ...part('x', 'operational'), name: 'translation' }])).toBeUndefined();
  });
});
