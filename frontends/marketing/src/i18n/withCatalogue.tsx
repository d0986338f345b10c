import { RemoteCatalogue, SectionCatalogue, type SectionLoaders } from '@kasa/i18n';
import type { ComponentType } from 'react';
import { MARKETING_ENGLISH, MARKETING_LOADERS } from './catalogues';

/**
 * The shell mounts each public page as a module of its own, so each exposed page brings its messages with it: in
 * the shell's language (the picker's choice), or running alone in the language the shell would have picked. A page
 * whose texts are a section of their own (i18n/pages, i18n/legal) names it; the page shows once they are loaded.
 */
export function withCatalogue<Props extends object>(
  Page: ComponentType<Props>,
  section?: SectionLoaders,
): ComponentType<Props> {
  function WithCatalogue(props: Props) {
    return (
      <RemoteCatalogue english={MARKETING_ENGLISH} loaders={MARKETING_LOADERS}>
        {section ? (
          <SectionCatalogue loaders={section}>
            <Page {...props} />
          </SectionCatalogue>
        ) : (
          <Page {...props} />
        )}
      </RemoteCatalogue>
    );
  }
  WithCatalogue.displayName = `WithCatalogue(${Page.displayName ?? Page.name})`;
  return WithCatalogue;
}
