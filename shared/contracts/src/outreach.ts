import { Email } from './auth';
import { z } from './zod';

/** Free text from a public form: trimmed, bounded, and free of control characters other than line breaks. */
const formText = (field: string, min: number, max: number, multiline = false) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(min, min === 1 ? `${field} is required` : `${field} must be at least ${min} characters`)
    .max(max, `${field} must be at most ${max} characters`)
    .regex(multiline ? /^(?:[^\p{Cc}]|[\r\n\t])*$/u : /^[^\p{Cc}]*$/u, `${field} must not contain control characters`);

/** POST /api/newsletter: subscribe an address to the Kasa newsletter. */
export const NewsletterSubscribeRequest = z.object({ email: Email }).openapi('NewsletterSubscribeRequest');
export type NewsletterSubscribeRequest = z.infer<typeof NewsletterSubscribeRequest>;

/**
 * The same answer whether the address is new or was already subscribed, so the form reveals nothing about who
 * reads the newsletter.
 */
export const NewsletterSubscribeResponse = z
  .object({ success: z.literal(true), message: z.string() })
  .openapi('NewsletterSubscribeResponse');
export type NewsletterSubscribeResponse = z.infer<typeof NewsletterSubscribeResponse>;

export const CONTACT_LIMITS = { name: 100, subject: 150, message: { min: 10, max: 4000 } } as const;

/** POST /api/contact: a message to the Kasa team from the contact page. */
export const ContactRequest = z
  .object({
    name: formText('name', 1, CONTACT_LIMITS.name),
    email: Email,
    subject: formText('subject', 1, CONTACT_LIMITS.subject),
    message: formText('message', CONTACT_LIMITS.message.min, CONTACT_LIMITS.message.max, true),
  })
  .openapi('ContactRequest');
export type ContactRequest = z.infer<typeof ContactRequest>;

/** Contact references: `MSG-` and eight characters of an unambiguous upper-case alphabet. */
export const CONTACT_REFERENCE_PATTERN = /^MSG-[0-9A-HJKMNP-TV-Z]{8}$/;

export const ContactResponse = z
  .object({ success: z.literal(true), reference: z.string(), message: z.string() })
  .openapi('ContactResponse');
export type ContactResponse = z.infer<typeof ContactResponse>;
