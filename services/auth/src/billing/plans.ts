import {
  ADD_ONS as ADD_ON_RULES,
  PLANS,
  type AddOn,
  type AddOnId,
  type FaqEntry,
  type Plan,
  type PlanId,
  type PlansResponse,
} from '@kasa/contracts';

// How Kasa's plans are presented (spec sections 6 and 9): the pricing page, the landing page's teaser and the
// checkout read them from here through GET /api/billing/plans. Prices and monthly calls come from the plans table
// (PLANS in @kasa/contracts), which also decides what each plan allows.

const FREE: Plan = {
  id: 'free',
  name: 'Free',
  price: PLANS.free.prices.USD,
  currency: 'USD',
  period: 'month',
  description: 'Text chat with all six personas, to get to know Kasa.',
  monthlyApiCalls: PLANS.free.monthlyCalls,
  features: ['1,000 API calls per month', 'All 6 AI personas', 'Text chat', 'Community support'],
  limitations: [
    'No voice conversations',
    'No multimodal input (images)',
    'No geo-awareness',
    'No multilingual chat beyond English',
    'No priority support',
  ],
  addOns: [],
  enterpriseExtras: [],
  buttonText: 'Get Started Free',
  popular: false,
};

const PRO: Plan = {
  id: 'pro',
  name: 'Pro',
  price: PLANS.pro.prices.USD,
  currency: 'USD',
  period: 'month',
  description: 'Voice, 120+ languages and answers that know where you are.',
  monthlyApiCalls: PLANS.pro.monthlyCalls,
  features: [
    '50,000 API calls per month',
    'All 6 AI personas',
    'Voice conversations (speech in and out)',
    'Multimodal input (images)',
    'Geo-aware answers',
    '120+ languages, including Twi, Hausa, Ga, Ewe, Yoruba and Swahili',
    'Priority support',
  ],
  limitations: ['Calls beyond 50,000 a month are bought as an add-on'],
  addOns: ['Extra API calls', 'Premium voices'],
  enterpriseExtras: [],
  buttonText: 'Upgrade to Pro',
  popular: true,
};

const ENTERPRISE: Plan = {
  id: 'enterprise',
  name: 'Enterprise',
  price: PLANS.enterprise.prices.USD,
  currency: 'USD',
  period: 'month',
  description: 'Everything in Pro, unlimited, for teams that build on Kasa.',
  monthlyApiCalls: PLANS.enterprise.monthlyCalls,
  features: ['Unlimited API calls', 'Everything in Pro'],
  limitations: [],
  addOns: ['Premium voices', 'Dedicated onboarding'],
  enterpriseExtras: [
    'Custom personas',
    'Full API access',
    'White-label deployment',
    'Video generation',
    'Analytics dashboard',
    'Team management',
    'Single sign-on (SSO)',
    '99.9% uptime SLA',
    'Dedicated account manager',
  ],
  buttonText: 'Contact Sales',
  popular: false,
};

export const PLAN_CATALOGUE: readonly Plan[] = [FREE, PRO, ENTERPRISE];

export const ADD_ONS: readonly AddOn[] = [
  {
    id: ADD_ON_RULES['extra-calls'].id,
    name: 'Extra API calls',
    price: ADD_ON_RULES['extra-calls'].prices.USD,
    period: `${ADD_ON_RULES['extra-calls'].calls.toLocaleString('en-US')} calls`,
    description: 'More calls for a busy month, without changing plan.',
  },
  {
    id: 'premium-voices',
    name: 'Premium voices',
    price: 9,
    period: 'month',
    description: 'Natural cloud voices for every language Kasa speaks.',
  },
  {
    id: 'onboarding',
    name: 'Dedicated onboarding',
    price: 499,
    period: 'once',
    description: 'A solutions engineer helps your team launch on Kasa.',
  },
];

export const PRICING_FAQ: readonly FaqEntry[] = [
  {
    question: 'Can I change plans at any time?',
    answer: 'Yes. Upgrades apply at once and are prorated immediately, so you only pay for the days you use.',
  },
  {
    question: 'What happens if I go over my monthly API calls?',
    answer:
      'Free accounts are rate-limited until the next month begins. Pro accounts can buy extra calls as an add-on ' +
      'and keep going.',
  },
  {
    question: 'Is the Free plan really free?',
    answer: 'Yes: 1,000 API calls a month and all six personas, with no card needed.',
  },
  {
    question: 'Which languages are included?',
    answer:
      'Free chats in English. Pro and Enterprise speak and understand 120+ languages, including Twi, Hausa, Ga, ' +
      'Ewe, Yoruba and Swahili.',
  },
  {
    question: 'How does Enterprise billing work?',
    answer:
      'Our sales team agrees the details with you: invoicing, volume, SLA and onboarding. Ask from the pricing ' +
      'page and they will contact you.',
  },
];

/** The answer of GET /api/billing/plans but its `testMode` (the router adds the server's); the same for every request. */
export const PLANS_RESPONSE: Omit<PlansResponse, 'testMode'> = {
  plans: [...PLAN_CATALOGUE],
  addOns: [...ADD_ONS],
  faq: [...PRICING_FAQ],
};

export function planById(id: PlanId): Plan {
  const plan = PLAN_CATALOGUE.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** An add-on as the pricing page presents it (its name), by id. */
export function addOnById(id: AddOnId): AddOn {
  const addOn = ADD_ONS.find((candidate) => candidate.id === id);
  if (!addOn) throw new Error(`Unknown add-on ${id}`);
  return addOn;
}
