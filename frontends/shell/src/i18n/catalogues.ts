import type { Catalogue, CatalogueLoaders } from '@kasa/i18n';
import english from './en.json';

/** The shell's English messages ship with the shell; every other language is its own chunk, loaded when picked. */
export const SHELL_ENGLISH = english as Catalogue;

export const SHELL_LOADERS: CatalogueLoaders = {
  fr: () => import(/* webpackChunkName: "i18n-shell-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-shell-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-shell-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-shell-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-shell-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-shell-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-shell-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-shell-ar" */ './ar.json'),
};
