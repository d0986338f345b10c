import type { Catalogue, CatalogueLoaders } from '@kasa/i18n';
import english from './en.json';

/** The chat's English messages ship with it; every other language is its own chunk, loaded when needed. */
export const CHAT_ENGLISH = english as Catalogue;

export const CHAT_LOADERS: CatalogueLoaders = {
  fr: () => import(/* webpackChunkName: "i18n-chat-fr" */ './fr.json'),
  sw: () => import(/* webpackChunkName: "i18n-chat-sw" */ './sw.json'),
  ha: () => import(/* webpackChunkName: "i18n-chat-ha" */ './ha.json'),
  yo: () => import(/* webpackChunkName: "i18n-chat-yo" */ './yo.json'),
  tw: () => import(/* webpackChunkName: "i18n-chat-tw" */ './tw.json'),
  ee: () => import(/* webpackChunkName: "i18n-chat-ee" */ './ee.json'),
  gaa: () => import(/* webpackChunkName: "i18n-chat-gaa" */ './gaa.json'),
  ar: () => import(/* webpackChunkName: "i18n-chat-ar" */ './ar.json'),
};
