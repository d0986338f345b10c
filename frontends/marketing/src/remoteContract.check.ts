/**
 * Type-check only (tsconfig.typecheck.json includes the shell's remote-modules.d.ts): every component this remote
 * exposes (frontends/federation/exposes.js) accepts the props the shell's declaration of it promises, and requires
 * none it does not. Nothing imports this file.
 */
import type { ComponentType } from 'react';
import type LandingPage from './routes/LandingPage';
import type WelcomePage from './routes/WelcomePage';
import type ComingSoonPage from './routes/ComingSoonPage';
import type PricingPage from './routes/PricingPage';
import type BillingSuccessPage from './routes/BillingSuccessPage';
import type FeaturesPage from './routes/FeaturesPage';
import type AboutPage from './routes/AboutPage';
import type PrivacyPage from './routes/legal/PrivacyPage';
import type TermsPage from './routes/legal/TermsPage';
import type CookiesPage from './routes/legal/CookiesPage';
import type GdprPage from './routes/legal/GdprPage';
import type StatusPage from './routes/StatusPage';
import type HelpPage from './routes/HelpPage';
import type ContactPage from './routes/ContactPage';

/** The props a component takes. */
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;
/** true when the shell's props for `Declared` are what `Actual` takes. */
type Accepts<Actual, Declared> = PropsOf<Declared> extends PropsOf<Actual> ? true : false;

export const exposedAsDeclared: {
  LandingPage: Accepts<typeof LandingPage, typeof import('marketing/LandingPage').default>;
  WelcomePage: Accepts<typeof WelcomePage, typeof import('marketing/WelcomePage').default>;
  ComingSoonPage: Accepts<typeof ComingSoonPage, typeof import('marketing/ComingSoonPage').default>;
  PricingPage: Accepts<typeof PricingPage, typeof import('marketing/PricingPage').default>;
  BillingSuccessPage: Accepts<typeof BillingSuccessPage, typeof import('marketing/BillingSuccessPage').default>;
  FeaturesPage: Accepts<typeof FeaturesPage, typeof import('marketing/FeaturesPage').default>;
  AboutPage: Accepts<typeof AboutPage, typeof import('marketing/AboutPage').default>;
  PrivacyPage: Accepts<typeof PrivacyPage, typeof import('marketing/PrivacyPage').default>;
  TermsPage: Accepts<typeof TermsPage, typeof import('marketing/TermsPage').default>;
  CookiesPage: Accepts<typeof CookiesPage, typeof import('marketing/CookiesPage').default>;
  GdprPage: Accepts<typeof GdprPage, typeof import('marketing/GdprPage').default>;
  StatusPage: Accepts<typeof StatusPage, typeof import('marketing/StatusPage').default>;
  HelpPage: Accepts<typeof HelpPage, typeof import('marketing/HelpPage').default>;
  ContactPage: Accepts<typeof ContactPage, typeof import('marketing/ContactPage').default>;
} = {
  LandingPage: true,
  WelcomePage: true,
  ComingSoonPage: true,
  PricingPage: true,
  BillingSuccessPage: true,
  FeaturesPage: true,
  AboutPage: true,
  PrivacyPage: true,
  TermsPage: true,
  CookiesPage: true,
  GdprPage: true,
  StatusPage: true,
  HelpPage: true,
  ContactPage: true,
};
