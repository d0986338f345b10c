import type { SectionLoaders } from '@kasa/i18n';

/** Hands-free voice's messages: loaded with it, never on the chat's first load. */
export const HANDS_FREE_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-hands-free-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-hands-free-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-hands-free-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-hands-free-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-hands-free-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-hands-free-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-hands-free-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-hands-free-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-hands-free-ar" */ './ar.json'),
};
