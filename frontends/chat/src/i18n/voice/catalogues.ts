import type { SectionLoaders } from '@kasa/i18n';

/** The voice controls' own messages (hands-free voice, which engine speaks): loaded with them, never on the chat's first load. */
export const VOICE_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-voice-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-voice-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-voice-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-voice-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-voice-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-voice-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-voice-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-voice-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-voice-ar" */ './ar.json'),
};
