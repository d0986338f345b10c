import type { SectionLoaders } from '@kasa/i18n';

/**
 * The messages of every public page but home and welcome (pricing, payment, status, help, contact, features, about,
 * coming soon), English included: loaded with the first of those pages, never on the landing page's first load.
 */
export const PAGES_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-marketing-pages-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-marketing-pages-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-marketing-pages-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-marketing-pages-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-marketing-pages-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-marketing-pages-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-marketing-pages-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-marketing-pages-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-marketing-pages-ar" */ './ar.json'),
};
