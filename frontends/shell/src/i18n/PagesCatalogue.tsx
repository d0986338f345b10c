import { SectionCatalogue } from '@kasa/i18n';
import type { ReactNode } from 'react';
import { PAGES_LOADERS } from './pages/catalogues';

/** Adds the shell pages' messages (pages/) to the frame's, for a page or the tour card; nothing shows until loaded. */
export function PagesCatalogue({ children }: { children: ReactNode }) {
  return <SectionCatalogue loaders={PAGES_LOADERS}>{children}</SectionCatalogue>;
}
