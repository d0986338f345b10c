import {
  ContactRequest,
  NewsletterSubscribeRequest,
  type ContactResponse,
  type NewsletterSubscribeResponse,
} from '@kasa/contracts';
import { parseInput, requestIdOf, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import type { Connection } from 'mongoose';
import { newReference } from '../billing/references';
import { contactMessageModel } from './contactMessageModel';
import { newsletterSubscriptionModel } from './newsletterSubscriptionModel';

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === DUPLICATE_KEY;

export const NEWSLETTER_MESSAGE = 'Thanks for subscribing! The Kasa newsletter will arrive in your inbox.';

/** Contact references: `MSG-` and 8 characters (40 bits), quoted in replies. */
const newContactReference = () => newReference('MSG', 8);

/**
 * The public forms of the website: POST /api/newsletter and POST /api/contact. Nobody needs to be signed in; the
 * gateway rate-limits both per client address. Logs carry references, never what people wrote or their address.
 */
export function createOutreachRouter(deps: { db: Connection; logger: Logger }): Router {
  const subscriptions = newsletterSubscriptionModel(deps.db);
  const messages = contactMessageModel(deps.db);
  const router = Router();

  router.post('/api/newsletter', async (req, res) => {
    const { email } = parseInput(NewsletterSubscribeRequest, req.body);
    try {
      await subscriptions.updateOne({ email }, { $setOnInsert: { email } }, { upsert: true });
    } catch (err) {
      // Two subscriptions of one address racing: the unique index kept one, which is the point.
      if (!isDuplicateKey(err)) throw err;
    }
    // The same answer for a new and a known address: the form does not reveal who is subscribed.
    const body: NewsletterSubscribeResponse = { success: true, message: NEWSLETTER_MESSAGE };
    res.set('Cache-Control', 'no-store').json(body);
  });

  router.post('/api/contact', async (req, res) => {
    const input = parseInput(ContactRequest, req.body);
    const store = () =>
      messages.create({ ...input, reference: newContactReference(), requestId: requestIdOf(req) || null });
    // A clash of random references is very unlikely; one retry with a new one settles it.
    const doc = await store().catch((err: unknown) => {
      if (isDuplicateKey(err)) return store();
      throw err;
    });
    deps.logger.info({ reference: doc.reference, requestId: requestIdOf(req) }, 'contact message received');
    const body: ContactResponse = {
      success: true,
      reference: doc.reference,
      message: `Thanks, ${input.name}! We have your message and will reply by email within two business days.`,
    };
    res.status(201).set('Cache-Control', 'no-store').json(body);
  });

  return router;
}
