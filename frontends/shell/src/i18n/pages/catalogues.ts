import type { SectionLoaders } from '@kasa/i18n';

/**
 * The messages of the shell's own pages (sign-in, settings, theme settings, not found) and of the guided tours:
 * loaded with those pages, in every language English included, so that the frame every page shows (navigation,
 * footer) carries only its own messages on a first load.
 */
export const PAGES_LOADERS: SectionLoaders = {
  en: () => import(/* webpackChunkName: "i18n-pages-en" */ './en.json'),
  fr: () => import(/* webpackChunkName: "i18n-pages-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-pages-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-pages-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-pages-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-pages-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-pages-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-pages-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-pages-ar" */ './ar.json'),
};
