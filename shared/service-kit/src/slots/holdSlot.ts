import type { RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import type { HttpError } from '../errors';
import type { ConcurrencySlots } from './concurrencySlots';

export interface HoldSlotOptions {
  slots: ConcurrencySlots;
  /** Whose slot the request takes: the person, the team or the key doing the work. */
  ownerOf(res: Response): string;
  /** The refusal when the owner is at the limit: a 429 (`TooManyRequestsError`) in the route's own words. */
  refuse(limit: number): HttpError;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Express middleware: reserves one of the owner's slots before the route does any work, and gives it back when the
 * response is over (sent, failed, or the client went away). At the limit the request is refused before its body is
 * read or any work starts.
 */
export function holdSlot(options: HoldSlotOptions): RequestHandler {
  const { slots, ownerOf, refuse, logger } = options;
  return (_req, res, next) => {
    const owner = ownerOf(res);
    slots.acquire(owner).then(
      (slot) => {
        if (!slot) return next(refuse(slots.limit));
        // 'close' follows every response, finished or cut off: the slot goes back once, whatever happened.
        res.once('close', () => {
          slots
            .release(owner, slot)
            .catch((err: unknown) =>
              logger?.warn({ err }, 'a concurrency slot was not released; it expires by itself'),
            );
        });
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
