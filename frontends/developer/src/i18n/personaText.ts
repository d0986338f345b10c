import type { Persona } from '@kasa/contracts';
import { DEVELOPER_ENGLISH } from './catalogues';
import type { MessageId, Translate } from './useT';

/**
 * A persona's expertise in the current language. Persona names stay as they are; the six personas' expertise is in
 * the catalogue (`persona.<id>.expertise`, worded as the chat words it), used while the chat service still sends the
 * English text the catalogue translates: a persona whose text changed, or a new one, shows the service's own words.
 */
export function personaExpertise(t: Translate, persona: Pick<Persona, 'id' | 'expertise'>): string {
  const id = `persona.${persona.id}.expertise`;
  return persona.expertise && DEVELOPER_ENGLISH[id] === persona.expertise ? t(id as MessageId) : persona.expertise;
}
