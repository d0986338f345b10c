/** The reply-language choices of the composer: `auto` (detect from the message) or a BCP 47 tag. */
export const LANGUAGE_CHOICES: ReadonlyArray<{ tag: string; label: string }> = [
  { tag: 'auto', label: 'Auto-detect' },
  { tag: 'en', label: 'English' },
  { tag: 'fr', label: 'Français' },
  { tag: 'es', label: 'Español' },
  { tag: 'pt', label: 'Português' },
  { tag: 'ar', label: 'العربية' },
  { tag: 'sw', label: 'Kiswahili' },
  { tag: 'ha', label: 'Hausa' },
  { tag: 'yo', label: 'Yorùbá' },
  { tag: 'tw', label: 'Twi' },
  { tag: 'ee', label: 'Eʋegbe (Ewe)' },
  { tag: 'gaa', label: 'Gã (Ga)' },
  { tag: 'zh', label: '中文' },
];

/**
 * The choices of the Free plan: Auto-detect (Kasa answers in the language a message is written in, on every plan)
 * and English. Choosing any other reply language is part of Pro (spec section 6: multilingual); the chat service
 * answers 403 otherwise.
 */
export function isFreeLanguageChoice(tag: string): boolean {
  return tag === 'auto' || tag === 'en' || tag.startsWith('en-');
}

const STORAGE_KEY = 'kasa_chat_language';
const known = new Set(LANGUAGE_CHOICES.map((choice) => choice.tag));

/** The saved choice, or `auto` (also when storage is unavailable or holds something else). */
export function loadLanguage(): string {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved && known.has(saved) ? saved : 'auto';
  } catch {
    return 'auto';
  }
}

export function saveLanguage(tag: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, tag);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}
