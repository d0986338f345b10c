import type { PanelsTranslate } from '../i18n/panels/usePanelsT';
import type { SchemaWords } from './operations';

/** The Docs tab's words for types and limits in the interface language (operations.ts has English's). */
export function schemaWordsFor(t: PanelsTranslate): SchemaWords {
  return {
    either: (first, second) => t('docs.type.either', { first, second }),
    arrayOf: (item) => t('docs.type.arrayOf', { item }),
    oneOf: (values) => t('docs.limit.oneOf', { values }),
    range: (min, max, unit) => t('docs.limit.range', { min, max, unit }),
    atLeast: (min, unit) => t('docs.limit.atLeast', { min, unit }),
    atMost: (max, unit) => t('docs.limit.atMost', { max, unit }),
    byDefault: (value) => t('docs.limit.default', { value }),
  };
}
