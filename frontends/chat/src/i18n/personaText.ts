import type { Persona } from '@kasa/contracts';
import { CHAT_ENGLISH } from './catalogues';
import type { MessageId, Translate } from './useT';

/**
 * A persona's expertise or greeting in the current language. Persona names stay as they are; the six personas'
 * texts are in the catalogue (`persona.<id>.<field>`), used while the chat service still sends the English text the
 * catalogue translates (a persona whose text changed, or a new one, shows the service's own words until the
 * catalogue catches up). A persona without a greeting gets the generic one.
 */
export function personaText(t: Translate, persona: Persona, field: 'greeting' | 'expertise'): string {
  const own = persona[field];
  const id = `persona.${persona.id}.${field}`;
  if (own && CHAT_ENGLISH[id] === own) return t(id as MessageId);
  if (own) return own;
  return field === 'greeting' ? t('conversation.greeting', { name: persona.name }) : '';
}
