export {
  DEFAULT_LOCALE,
  LOCALES,
  LOCALE_CODES,
  isLocale,
  localeInfo,
  type CatalogueStatus,
  type Locale,
  type LocaleInfo,
} from './locales';
export { negotiateLocale, parseAcceptLanguage } from './negotiate';
export { applyDocumentLocale } from './documentLocale';
export { LANGUAGE_STORAGE_KEY, initialLocale, storeLocale, storedLocale } from './storage';
export { CatalogueProvider, RemoteCatalogue, useCatalogue, type CatalogueLoaders } from './CatalogueProvider';
export {
  MessagesContext,
  MessagesProvider,
  useMessages,
  type Catalogue,
  type MessageValues,
  type Messages,
} from './MessagesContext';
export { useTranslator, type Translator } from './useTranslator';
export { fillPlaceholders, formatElements, type MessageValue } from './formatMessage';
export { SectionCatalogue, type SectionLoaders } from './SectionCatalogue';
