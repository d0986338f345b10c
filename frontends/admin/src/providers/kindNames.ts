import type { AiProviderKind } from '@kasa/contracts';
import { kindName as nameOfKind } from '@kasa/ui/aiProviders';
import type { Translate } from '../i18n/useT';

/** A kind as the console names it: the provider's name, or the console's words for the two that are not a brand. */
export const kindName = (kind: AiProviderKind, t: Translate): string =>
  nameOfKind(kind, t, { 'openai-compatible': 'kind.openaiCompatible', local: 'kind.local' });
