import type { SectionLoaders } from '@kasa/i18n';

/** The sharing dialog's and the shared page's messages: loaded with them, never on the chat's first load. */
export const SHARE_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-share-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-share-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-share-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-share-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-share-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-share-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-share-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-share-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-share-ar" */ './ar.json'),
};
