import type { Catalogue, CatalogueLoaders } from '@kasa/i18n';
import english from './en.json';

/**
 * The public pages' English messages ship with them: what the home and welcome pages show (and the plans' texts,
 * which their teaser shares with the pricing page). Every other language is its own chunk, loaded when needed. The
 * other pages' messages (i18n/pages) and the legal pages' long texts (i18n/legal) are sections of their own, loaded
 * with those pages, so that the landing page's first load does not carry them.
 */
export const MARKETING_ENGLISH = english as Catalogue;

export const MARKETING_LOADERS: CatalogueLoaders = {
  fr: () => import(/* webpackChunkName: "i18n-marketing-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-marketing-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-marketing-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-marketing-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-marketing-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-marketing-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-marketing-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-marketing-ar" */ './ar.json'),
};
