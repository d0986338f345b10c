import { useTranslator, type Translator } from '@kasa/i18n';

/**
 * The messages @kasa/ui's components show, by id. They are read from the catalogue of the frontend that renders the
 * component (its nearest CatalogueProvider or RemoteCatalogue), so each frontend's catalogue carries them in every
 * language and this package holds no text. messages.test.ts checks that each frontend using a component has them.
 */
export const UI_MESSAGES = {
  /** ConfirmDialog: the button that closes without confirming. */
  ConfirmDialog: ['common.cancel'],
  /**
   * CopyButton: its default label, what it says after a copy and after a refused copy; `copy.named` (placeholders
   * `{action}` and `{context}`) only where a caller passes `context`.
   */
  CopyButton: ['copy.label', 'copy.done', 'copy.failed'],
  /** StandaloneApp (a remote running alone): its loading line, and its sign-in form's heading, labels and button. */
  StandaloneApp: ['common.loading', 'standalone.title', 'standalone.email', 'standalone.password', 'standalone.signIn'],
  /** StandaloneSignIn: its heading, labels and button. */
  StandaloneSignIn: ['standalone.title', 'standalone.email', 'standalone.password', 'standalone.signIn'],
} as const;

export type UiMessageId = (typeof UI_MESSAGES)[keyof typeof UI_MESSAGES][number] | 'copy.named';

/** The messages of '@kasa/ui/standalone'. */
export type StandaloneMessageId = (typeof UI_MESSAGES)['StandaloneApp'][number];

/** The current language's messages of the frontend around the component. */
export const useUiT = (): Translator<UiMessageId> => useTranslator<UiMessageId>();
