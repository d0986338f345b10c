import type { SectionLoaders } from '@kasa/i18n';

/**
 * The legal pages' texts (privacy, terms, cookies, GDPR), English included: loaded when one of those pages opens,
 * never with the landing page.
 */
export const LEGAL_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-marketing-legal-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-marketing-legal-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-marketing-legal-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-marketing-legal-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-marketing-legal-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-marketing-legal-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-marketing-legal-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-marketing-legal-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-marketing-legal-ar" */ './ar.json'),
};
