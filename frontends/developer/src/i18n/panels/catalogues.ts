import type { SectionLoaders } from '@kasa/i18n';

/**
 * The messages of every tab but Overview (Docs, SDKs, API Test, Examples, Services, Analytics, Keys, Webhooks, Team),
 * English included: loaded the first time one of those tabs opens, beside its code, never on the portal's first load.
 */
export const PANELS_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-developer-panels-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-developer-panels-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-developer-panels-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-developer-panels-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-developer-panels-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-developer-panels-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-developer-panels-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-developer-panels-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-developer-panels-ar" */ './ar.json'),
};
