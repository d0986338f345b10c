import type { PaymentStatus } from '@kasa/contracts';

/**
 * How long the success page waits before asking the processor again while a payment is pending: growing, about
 * half a minute in all, which covers a card's or mobile money's usual confirmation; after that the person asks.
 */
export const VERIFY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 16_000];

/** The wait before the next question after `answers` answers that all said pending; false once the waits are spent. */
export function nextVerifyDelay(answers: number): number | false {
  return answers >= 1 ? (VERIFY_DELAYS_MS[answers - 1] ?? false) : false;
}

/**
 * What the success page says:
 * - `noReference`: the link has no reference to check;
 * - `signedOut`: only the person who paid can see the payment;
 * - `checking`: asking the processor (at first, and between the waits while it is pending);
 * - `paid`: confirmed, the plan is active;
 * - `stillPending`: the processor has not confirmed it after every wait (the person can ask again);
 * - `failed`: the processor says it did not go through;
 * - `notFound`: not a payment of this account (or not a reference at all);
 * - `unavailable`: the server or the processor did not answer.
 */
export type CheckoutPhase =
  'noReference' | 'signedOut' | 'checking' | 'paid' | 'stillPending' | 'failed' | 'notFound' | 'unavailable';

export interface CheckoutPhaseInput {
  reference: string | null;
  /** The reference has the shape of Kasa's (`KASA-` and ten characters). */
  wellFormed: boolean;
  authLoading: boolean;
  signedIn: boolean;
  /** The latest answer's payment status, if any. */
  status?: PaymentStatus;
  /** How many answers came so far. */
  answers: number;
  /** A question is on its way. */
  fetching: boolean;
  /** The HTTP status of the last failure (0 for a network failure), or null without one. */
  errorStatus: number | null;
}

/** The phase of the success page for what is known now. */
export function checkoutPhase(input: CheckoutPhaseInput): CheckoutPhase {
  if (!input.reference) return 'noReference';
  if (input.authLoading) return 'checking';
  if (!input.signedIn) return 'signedOut';
  if (!input.wellFormed) return 'notFound';
  if (input.status === 'completed') return 'paid';
  if (input.status === 'failed') return 'failed';
  if (input.fetching) return 'checking';
  if (input.errorStatus !== null) {
    return input.errorStatus >= 400 && input.errorStatus < 500 ? 'notFound' : 'unavailable';
  }
  if (input.status === 'pending') return nextVerifyDelay(input.answers) === false ? 'stillPending' : 'checking';
  return 'checking';
}
