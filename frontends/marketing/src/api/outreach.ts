import { apiJson } from '@kasa/api-client';
import type { ContactRequest, ContactResponse } from '@kasa/contracts';

/** POST /api/contact. */
export function sendContactMessage(message: ContactRequest): Promise<ContactResponse> {
  return apiJson<ContactResponse>('POST', '/api/contact', message);
}

/**
 * The limits of ContactRequest in @kasa/contracts, repeated here so that the browser does not load zod for them;
 * the server checks them again.
 */
export const CONTACT_FIELD_LIMITS = { name: 100, subject: 150, messageMin: 10, messageMax: 4000 } as const;

/** A practical check of an address's shape before sending it; the server has the last word. */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254;
