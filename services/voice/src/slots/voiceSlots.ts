import {
  holdSlot,
  identityOf,
  MongoConcurrencySlots,
  TooManyRequestsError,
  type ConcurrencySlots,
  type Identity,
  type Logger,
} from '@kasa/service-kit';
import type { RequestHandler, Response } from 'express';
import type { Connection } from 'mongoose';
import type { VoiceConfig } from '../config';

/**
 * How long a request's slot lives at most: longer than any synthesis, transcription or translation takes (5,000
 * characters are about 13 chunks of text, each stopped after VOICE_SYNTHESIS_TIMEOUT_MS), so that it only ever
 * expires when the instance holding it died without giving it back.
 */
export const REQUEST_SLOT_TTL_MS = 10 * 60_000;

/** How long a refused client is told to wait: a synthesis or a transcription takes a few seconds. */
export const REQUEST_RETRY_AFTER_SECONDS = 5;

/** The per-person limits of the voice service's costly requests, one scope each in `concurrency_slots`. */
export interface VoiceSlots {
  synthesis: ConcurrencySlots;
  transcription: ConcurrencySlots;
  translation: ConcurrencySlots;
}

export type VoiceSlotSettings = Pick<
  VoiceConfig,
  'VOICE_SYNTHESIS_MAX_CONCURRENT' | 'VOICE_TRANSCRIPTION_MAX_CONCURRENT' | 'VOICE_TRANSLATION_MAX_CONCURRENT'
>;

/** The kit's slots in voice's database (`concurrency_slots`), shared by every replica. */
export function createVoiceSlots(db: Connection, settings: VoiceSlotSettings): VoiceSlots {
  const slots = (scope: string, limit: number) =>
    new MongoConcurrencySlots(db, { scope, limit, ttlMs: REQUEST_SLOT_TTL_MS });
  return {
    synthesis: slots('synthesis', settings.VOICE_SYNTHESIS_MAX_CONCURRENT),
    transcription: slots('transcription', settings.VOICE_TRANSCRIPTION_MAX_CONCURRENT),
    translation: slots('translation', settings.VOICE_TRANSLATION_MAX_CONCURRENT),
  };
}

/**
 * Whose slot a request takes: the identity's user id, which the gateway sets to the person the work is done for
 * (for an API key, the key's owner).
 */
export const ownerOf = (res: Response): string => identityOf(res).userId;

/** 429: the person already has as much of this work under way as the limit allows. */
export function tooMany(scope: keyof VoiceSlots, limit: number): TooManyRequestsError {
  const [one, many] = {
    synthesis: ['a text being read aloud', 'texts being read aloud'],
    transcription: ['a recording being transcribed', 'recordings being transcribed'],
    translation: ['a translation under way', 'translations under way'],
  }[scope];
  return new TooManyRequestsError(
    `You already have ${limit === 1 ? one : `${limit} ${many}`} (at most ${limit} at once). ` +
      `Wait for ${limit === 1 ? 'it' : 'one'} to finish, then try again.`,
    REQUEST_RETRY_AFTER_SECONDS,
    { limit, scope },
  );
}

/**
 * Takes one of the caller's slots of this scope for the request (see the kit's `holdSlot`): reserved before the
 * route reads its body or starts any work, given back when the response is over. Needs `requireIdentity` before it.
 */
export function personSlot(slots: VoiceSlots, scope: keyof VoiceSlots, logger?: Logger): RequestHandler {
  return holdSlot({ slots: slots[scope], ownerOf, refuse: (limit) => tooMany(scope, limit), logger });
}

/**
 * As `personSlot`, for a route that anonymous callers may use too (the landing page's voice samples): only a
 * signed-in caller takes a slot. Anonymous synthesis is limited to the few sample sentences, whose audio is cached,
 * and per address at the gateway; its processes still wait for a place in the process pool like everyone's.
 */
export function personSlotWhenSignedIn(slots: VoiceSlots, scope: keyof VoiceSlots, logger?: Logger): RequestHandler {
  const hold = personSlot(slots, scope, logger);
  return (req, res, next) => {
    if ((res.locals.identity as Identity | undefined) === undefined) return next();
    return hold(req, res, next);
  };
}
