import { checkoutPhase, nextVerifyDelay, VERIFY_DELAYS_MS, type CheckoutPhaseInput } from './checkoutPhase';

const signedIn: CheckoutPhaseInput = {
  reference: 'KASA-7M3QK9D2XH',
  wellFormed: true,
  authLoading: false,
  signedIn: true,
  answers: 0,
  fetching: true,
  errorStatus: null,
};

describe('nextVerifyDelay', () => {
  it('waits longer after each pending answer, then stops', () => {
    const waits = VERIFY_DELAYS_MS.map((_, i) => nextVerifyDelay(i + 1));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(nextVerifyDelay(VERIFY_DELAYS_MS.length + 1)).toBe(false);
    expect(nextVerifyDelay(0)).toBe(false);
  });
});

describe('checkoutPhase', () => {
  it('says there is nothing to check without a reference', () => {
    expect(checkoutPhase({ ...signedIn, reference: null, wellFormed: false })).toBe('noReference');
  });

  it('waits for the sign-in state, then asks a signed-out visitor to sign in', () => {
    expect(checkoutPhase({ ...signedIn, authLoading: true, signedIn: false })).toBe('checking');
    expect(checkoutPhase({ ...signedIn, signedIn: false, fetching: false })).toBe('signedOut');
  });

  it('does not ask about a reference that is not one of Kasa’s shape', () => {
    expect(checkoutPhase({ ...signedIn, reference: 'KASA-SAMPLE', wellFormed: false, fetching: false })).toBe(
      'notFound',
    );
  });

  it('is checking until the first answer, and while a pending payment still has waits left', () => {
    expect(checkoutPhase(signedIn)).toBe('checking');
    expect(checkoutPhase({ ...signedIn, fetching: false, status: 'pending', answers: 1 })).toBe('checking');
  });

  it('says the payment is not confirmed yet once every wait is spent, and checks again when asked', () => {
    const spent = { ...signedIn, fetching: false, status: 'pending' as const, answers: VERIFY_DELAYS_MS.length + 1 };
    expect(checkoutPhase(spent)).toBe('stillPending');
    expect(checkoutPhase({ ...spent, fetching: true })).toBe('checking');
  });

  it('says paid or failed as the processor does, even while a question is on its way', () => {
    expect(checkoutPhase({ ...signedIn, status: 'completed', answers: 1 })).toBe('paid');
    expect(checkoutPhase({ ...signedIn, status: 'failed', answers: 1 })).toBe('failed');
  });

  it('tells an unknown payment from a server that did not answer', () => {
    expect(checkoutPhase({ ...signedIn, fetching: false, errorStatus: 404 })).toBe('notFound');
    expect(checkoutPhase({ ...signedIn, fetching: false, errorStatus: 503 })).toBe('unavailable');
    expect(checkoutPhase({ ...signedIn, fetching: false, errorStatus: 0 })).toBe('unavailable');
  });
});
