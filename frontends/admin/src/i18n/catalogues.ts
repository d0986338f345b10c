import type { Catalogue, CatalogueLoaders } from '@kasa/i18n';
import english from './en.json';

/** The console's English messages ship with it; every other language is its own chunk, loaded when needed. */
export const ADMIN_ENGLISH = english as Catalogue;

export const ADMIN_LOADERS: CatalogueLoaders = {
  fr: () => import(/* webpackChunkName: "i18n-admin-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-admin-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-admin-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-admin-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-admin-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-admin-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-admin-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-admin-ar" */ './ar.json'),
};
