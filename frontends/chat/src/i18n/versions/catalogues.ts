import type { Catalogue, SectionLoaders } from '@kasa/i18n';
import english from './en.json';

/**
 * The messages of editing a message and of its versions (‹ 1/3 ›): English comes with the message bubbles, the other
 * languages together in one small chunk, so that neither is on the chat's first load nor adds a chunk per language
 * to the remote's entry.
 */
export const VERSIONS_LOADERS: SectionLoaders = {
  en: () => Promise.resolve(english as Catalogue),
  fr: () => import(/* webpackChunkName: "i18n-versions" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-versions" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-versions" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-versions" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-versions" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-versions" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-versions" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-versions" */ './ar.json'),
};
