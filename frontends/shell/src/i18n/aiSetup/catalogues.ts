import type { SectionLoaders } from '@kasa/i18n';

/**
 * The messages of the setup page's Connect AI step: loaded with the step (its own chunk), in every language English
 * included, so that no other page carries them.
 */
export const AI_SETUP_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-ai-setup-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-ai-setup-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-ai-setup-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-ai-setup-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-ai-setup-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-ai-setup-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-ai-setup-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-ai-setup-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-ai-setup-ar" */ './ar.json'),
};
