import { useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MessagesContext, MessagesProvider, type Catalogue } from './MessagesContext';
import { isLocale, type Locale } from './locales';
import { initialLocale } from './storage';

/** Lazy loaders of a frontend's catalogues, one dynamic import per language (English is passed in directly). */
export type CatalogueLoaders = Partial<Record<Locale, () => Promise<Catalogue | { default: Catalogue }>>>;

const loaded = new Map<() => Promise<unknown>, Catalogue>();

function unwrap(module: Catalogue | { default: Catalogue }): Catalogue {
  return 'default' in module && typeof module.default === 'object'
    ? (module.default as Catalogue)
    : (module as Catalogue);
}

/**
 * The messages for `locale`: English with the language's translations over it, so that a message missing from a
 * catalogue shows in English rather than as its id. Undefined while the language's catalogue is still loading; a
 * catalogue that fails to load leaves English.
 */
export function useCatalogue(locale: Locale, english: Catalogue, loaders: CatalogueLoaders): Catalogue | undefined {
  const loader = locale === 'en' ? undefined : loaders[locale];
  const [, setVersion] = useState(0);
  const translated = loader ? loaded.get(loader) : undefined;

  useEffect(() => {
    if (!loader || loaded.has(loader)) return;
    let cancelled = false;
    loader()
      .then((module) => loaded.set(loader, unwrap(module)))
      .catch(() => loaded.set(loader, {}))
      .finally(() => {
        if (!cancelled) setVersion((version) => version + 1);
      });
    return () => {
      cancelled = true;
    };
  }, [loader]);

  return useMemo(() => {
    if (!loader) return english;
    return translated ? { ...english, ...translated } : undefined;
  }, [english, loader, translated]);
}

interface CatalogueProviderProps {
  locale: Locale;
  english: Catalogue;
  loaders: CatalogueLoaders;
  children: ReactNode;
}

/** Provides a frontend's messages in `locale` to its components; renders nothing until the catalogue is loaded. */
export function CatalogueProvider({ locale, english, loaders, children }: CatalogueProviderProps) {
  const messages = useCatalogue(locale, english, loaders);
  if (!messages) return null;
  return (
    <MessagesProvider locale={locale} catalogue={messages}>
      {children}
    </MessagesProvider>
  );
}

/**
 * A remote's own messages in the shell's language: the shell's provider (@kasa/i18n is a shared singleton) gives
 * the locale, this one the remote's catalogue. Running alone, without the shell, the remote picks the language the
 * shell would have (stored choice, else the browser's).
 */
export function RemoteCatalogue({ english, loaders, children }: Omit<CatalogueProviderProps, 'locale'>) {
  const outer = useContext(MessagesContext);
  const locale = outer && isLocale(outer.locale) ? outer.locale : initialLocale();
  return (
    <CatalogueProvider locale={locale} english={english} loaders={loaders}>
      {children}
    </CatalogueProvider>
  );
}
