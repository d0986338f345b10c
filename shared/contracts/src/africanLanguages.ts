/**
 * The six African languages Kasa names wherever it describes itself (spec section 1), in the site's order: the one
 * list that the web app's pages, the developer portal and the chat's built-in notes agree with.
 */
export const AFRICAN_LANGUAGES = [
  { code: 'tw', name: 'Twi' },
  { code: 'ha', name: 'Hausa' },
  { code: 'gaa', name: 'Ga' },
  { code: 'ee', name: 'Ewe' },
  { code: 'yo', name: 'Yoruba' },
  { code: 'sw', name: 'Swahili' },
] as const;

export type AfricanLanguageCode = (typeof AFRICAN_LANGUAGES)[number]['code'];

/** `Twi, Hausa, Ga, Ewe, Yoruba and Swahili`. */
export const AFRICAN_LANGUAGE_NAMES = AFRICAN_LANGUAGES.map((l) => l.name)
  .join(', ')
  .replace(/, ([^,]+)$/, ' and $1');
