import { allows, type CreateMessageRequest, type EditMessageRequest, type RegenerateRequest } from '@kasa/contracts';
import { assertPlanAllows, TooManyRequestsError, type Logger } from '@kasa/service-kit';
import { ATTACHMENTS_PLAN } from '../attachments/attachmentService';
import { usesGeoContext } from '../geo/geoContext';
import type { Identity } from '../identity/identity';
import type { ReplySlots } from '../replies/replySlots';

/** When the person is at the concurrent-replies limit, after how many seconds a retry makes sense. */
export const REPLY_RETRY_AFTER_SECONDS = 5;

/** 429: the person already has as many replies being written as the limit allows. */
export class TooManyRepliesError extends TooManyRequestsError {
  constructor(limit: number) {
    super(
      `You have ${limit} replies being written. Wait for one to finish (or stop it), then send again.`,
      REPLY_RETRY_AFTER_SECONDS,
      { limit },
    );
  }
}

const PLAN_FEATURE: Record<'voice' | 'image', string> = {
  voice: 'Voice messages are part of the Pro plan. Upgrade to Pro to send them.',
  image: 'Image (multimodal) messages are part of the Pro plan. Upgrade to Pro to send them.',
};

const LANGUAGE_CHOICE_PLAN =
  'Choosing a reply language is part of the Pro plan. Upgrade to Pro, or use auto: Kasa then answers in the ' +
  'language you write in.';

/**
 * Spec section 6 keeps multilingual features (and geo-awareness) for Pro and up. On Free, Kasa still answers in the
 * language a message is written in (`auto`): refusing a Twi speaker an answer in Twi would defeat the product; what
 * Pro adds is choosing the reply language (and translation, voices and the personas' location context).
 */
function isFreeLanguageChoice(tag: string): boolean {
  const lower = tag.toLowerCase();
  return lower === 'auto' || lower === 'en' || lower.startsWith('en-');
}

export interface TurnPolicyDeps {
  /** The concurrent-replies limit, reserved before any work (shared by every replica, and with /v1). */
  slots: ReplySlots;
  logger: Logger;
}

/**
 * What a person's plan lets a turn do (the plans table of `@kasa/contracts`, through `allows`), and the reply slot a
 * turn holds while its reply is written.
 */
export class TurnPolicy {
  constructor(private readonly deps: TurnPolicyDeps) {}

  /** 403 naming the plan when the message asks for what the person's plan does not include. */
  check(who: Identity, input: CreateMessageRequest | EditMessageRequest | RegenerateRequest): void {
    if ('type' in input && input.type !== 'text')
      assertPlanAllows(who.tier, input.type === 'voice' ? 'voice' : 'attachments', PLAN_FEATURE[input.type]);
    if (input.language && !isFreeLanguageChoice(input.language))
      assertPlanAllows(who.tier, 'languages', LANGUAGE_CHOICE_PLAN);
    if ('attachmentIds' in input && input.attachmentIds?.length)
      assertPlanAllows(who.tier, 'attachments', ATTACHMENTS_PLAN);
  }

  /** Whether the prompt may say where the person appears to be: their plan has it and the persona uses it. */
  usesLocation(who: Identity, personaId: string): boolean {
    return allows(who.tier, 'geo') && usesGeoContext(personaId);
  }

  /**
   * Reserves one of the person's reply slots, or 429. Reserved before anything is read or stored, so that
   * simultaneous messages cannot all slip in.
   */
  async reserve(who: Identity): Promise<string> {
    const slotId = await this.deps.slots.acquire(who.userId);
    if (!slotId) throw new TooManyRepliesError(this.deps.slots.limit);
    return slotId;
  }

  /** Gives a slot back; one that cannot be released now expires by itself (SLOT_TTL_MS). Never throws. */
  async release(ownerId: string, slotId: string): Promise<void> {
    await this.deps.slots
      .release(ownerId, slotId)
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'reply slot not released'));
  }
}
