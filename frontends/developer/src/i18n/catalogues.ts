import type { Catalogue, CatalogueLoaders } from '@kasa/i18n';
import english from './en.json';

/**
 * The portal's own English messages ship with it: what its first load shows (the header, the tab names, Overview,
 * the shared controls, failures and figures). Every other language is its own chunk, loaded when needed; the other
 * tabs' messages are a section of their own (i18n/panels), loaded with the first of those tabs.
 */
export const DEVELOPER_ENGLISH = english as Catalogue;

export const DEVELOPER_LOADERS: CatalogueLoaders = {
  fr: () => import(/* webpackChunkName: "i18n-developer-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-developer-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-developer-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-developer-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-developer-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-developer-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-developer-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-developer-ar" */ './ar.json'),
};
