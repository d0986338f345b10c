import { parse } from '@formatjs/icu-messageformat-parser';
import type { Catalogue } from '@kasa/i18n';
import { PLANS_RESPONSE } from '../../../../services/auth/src/billing/plans';
import english from './en.json';
import { planTextIndex, planTextTranslator } from './planText';
import { translatorFor } from './testing';
import twi from './tw.json';

/** Every text of GET /api/billing/plans that the pages show. */
const servedTexts = [
  ...PLANS_RESPONSE.plans.flatMap((plan) => [
    plan.description,
    plan.period,
    plan.buttonText,
    ...plan.features,
    ...plan.limitations,
    ...plan.enterpriseExtras,
    ...plan.addOns,
  ]),
  ...PLANS_RESPONSE.addOns.flatMap((addOn) => [addOn.name, addOn.period, addOn.description]),
  ...PLANS_RESPONSE.faq.flatMap((entry) => [entry.question, entry.answer]),
];

describe('the plans’ texts', () => {
  const index = planTextIndex(english as Catalogue);

  it('has a message for every text the auth service serves', () => {
    expect(servedTexts.filter((text) => !index.has(text))).toEqual([]);
  });

  it('has no message for a text the auth service no longer serves', () => {
    const served = new Set(servedTexts);
    expect([...index.keys()].filter((text) => !served.has(text))).toEqual([]);
  });

  it('shows the translation of a known text in the interface language', () => {
    const translate = planTextTranslator(index, translatorFor('tw', twi));
    expect(translate('Upgrade to Pro')).toBe(twi['plans.button.pro']);
    expect(translate('Can I change plans at any time?')).toBe(twi['plans.faq.change.question']);
  });

  it('shows a text it does not know as the service sent it', () => {
    const translate = planTextTranslator(index, translatorFor('tw', twi));
    expect(translate('A brand new feature')).toBe('A brand new feature');
  });

  it('finds English messages that the build shipped parsed', () => {
    const built: Catalogue = { 'plans.free.description': parse("Kasa's free plan"), 'landing.title': 'Not a plan' };
    const builtIndex = planTextIndex(built);
    expect(builtIndex.get("Kasa's free plan")).toBe('plans.free.description');
    expect(builtIndex.has('Not a plan')).toBe(false);
  });
});
