import type { SectionLoaders } from '@kasa/i18n';

/** The Videos panel's messages: loaded with the panel, never on the chat's first load. */
export const VIDEO_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-video-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-video-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-video-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-video-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-video-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-video-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-video-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-video-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-video-ar" */ './ar.json'),
};
