import { monthlyQuotaMessage, perMinuteMessage, type QuotaLimits } from './plans';

const limits: QuotaLimits = { monthly: { free: 1_000, pro: 50_000, enterprise: null }, perMinute: 1_000 };
const august = Date.UTC(2026, 7, 1);

describe('quota messages', () => {
  it('names the plan, its quota, the upgrade and the reset day', () => {
    expect(monthlyQuotaMessage(limits, 'free', august)).toBe(
      'Monthly API call quota of the Free plan (1,000 calls) reached; upgrade to Pro for 50,000 calls a month. ' +
        'The quota resets on 1 August 2026 (UTC).',
    );
    expect(monthlyQuotaMessage(limits, 'pro', august)).toBe(
      'Monthly API call quota of the Pro plan (50,000 calls) reached; upgrade to Enterprise for unlimited calls. ' +
        'The quota resets on 1 August 2026 (UTC).',
    );
  });

  it('offers no upgrade beyond Enterprise', () => {
    const capped = { ...limits, monthly: { ...limits.monthly, enterprise: 2_000_000 } };
    expect(monthlyQuotaMessage(capped, 'enterprise', august)).toBe(
      'Monthly API call quota of the Enterprise plan (2,000,000 calls) reached. The quota resets on 1 August 2026 (UTC).',
    );
  });

  it('says whose per-minute limit was hit and how long to wait', () => {
    expect(perMinuteMessage(limits, true, 12)).toBe(
      'Rate limit of 1,000 requests per minute reached for this API key; try again in 12 seconds.',
    );
    expect(perMinuteMessage(limits, false, 1)).toBe(
      'Rate limit of 1,000 requests per minute reached for your account; try again in 1 second.',
    );
  });
});
