import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { CatalogueLoaders } from './CatalogueProvider';
import { MessagesContext, formatterFor, useMessages, type Catalogue } from './MessagesContext';
import type { Locale } from './locales';

/** Lazy loaders of a section's catalogues, English included (a section's messages are not in the first load). */
export type SectionLoaders = CatalogueLoaders & { en: NonNullable<CatalogueLoaders['en']> };

const loaded = new Map<() => Promise<unknown>, Catalogue>();

function load(loader: () => Promise<Catalogue | { default: Catalogue }>): Promise<Catalogue> {
  const known = loaded.get(loader);
  if (known) return Promise.resolve(known);
  return loader()
    .then((module) => ('default' in module && typeof module.default === 'object' ? module.default : module))
    .catch(() => ({}))
    .then((catalogue) => {
      loaded.set(loader, catalogue as Catalogue);
      return catalogue as Catalogue;
    });
}

/**
 * Adds a section's messages (a set of pages that load on demand) to the surrounding ones, in the surrounding
 * language: English first, the language's translations over it. Renders nothing until they are loaded.
 */
export function SectionCatalogue({ loaders, children }: { loaders: SectionLoaders; children: ReactNode }) {
  const outer = useMessages();
  const locale: Locale = outer.locale;
  const english = loaded.get(loaders.en);
  const translatedLoader = locale === 'en' ? undefined : loaders[locale];
  const translated = translatedLoader ? loaded.get(translatedLoader) : {};
  const [, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    const wanted = [loaders.en, ...(translatedLoader ? [translatedLoader] : [])];
    if (wanted.every((loader) => loaded.has(loader))) return;
    void Promise.all(wanted.map(load)).then(() => {
      if (!cancelled) setVersion((version) => version + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [loaders, translatedLoader]);

  const value = useMemo(() => {
    if (!english || !translated) return undefined;
    const section = formatterFor(locale, { ...english, ...translated });
    const own = new Set([...Object.keys(english), ...Object.keys(translated)]);
    return {
      locale,
      format: (id: string, values?: Parameters<typeof section>[1]) =>
        own.has(id) ? section(id, values) : outer.format(id, values),
    };
  }, [english, translated, locale, outer]);

  if (!value) return null;
  return <MessagesContext.Provider value={value}>{children}</MessagesContext.Provider>;
}
