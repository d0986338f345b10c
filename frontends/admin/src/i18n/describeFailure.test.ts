import { ApiError } from '@kasa/api-client';
import { describeAdminFailure, knownRefusal } from './describeFailure';
import french from './fr.json';
import { translatorFor } from './testing';

const refusal = (status: number, message: string, details?: unknown) =>
  new ApiError(status, message, { message, code: status === 409 ? 'conflict' : 'not_found', details });

describe('the console’s words for refusals', () => {
  it('tells a suspension of oneself from a person already suspended', () => {
    const conflict = refusal(409, 'This person is already suspended.');
    expect(knownRefusal('suspend', conflict, { self: true })).toBe('failure.suspendSelf');
    expect(knownRefusal('suspend', conflict)).toBe('failure.alreadySuspended');
    expect(knownRefusal('restore', refusal(409, 'This person is not suspended.'))).toBe('failure.notSuspended');
  });

  it('tells a plan the person is on already from one a processor renews', () => {
    expect(knownRefusal('changePlan', refusal(409, 'on the pro plan already', { tier: 'pro' }))).toBe(
      'failure.samePlan',
    );
    expect(knownRefusal('changePlan', refusal(409, 'renewed by Stripe'))).toBe('failure.processorRenews');
    expect(knownRefusal('grantEnterprise', refusal(409, 'renewed by Paystack'))).toBe('failure.processorRenews');
  });

  it('says why an operator cannot be removed', () => {
    const conflict = refusal(409, 'no');
    expect(knownRefusal('removeOperator', conflict, { configured: true })).toBe('failure.configuredOperator');
    expect(knownRefusal('removeOperator', conflict, { self: true })).toBe('failure.removeSelf');
    expect(knownRefusal('addOperator', refusal(404, 'No account uses this e-mail address.'))).toBe('failure.noAccount');
  });

  it('says why a provider cannot change, and that a download runs already', () => {
    expect(knownRefusal('addProvider', refusal(409, 'A provider has this name.'))).toBe('failure.providerExists');
    expect(knownRefusal('removeProvider', refusal(409, 'from the environment'))).toBe(
      'failure.providerFromEnvironment',
    );
    expect(knownRefusal('updateProvider', refusal(404, 'No provider has this name.'))).toBe('failure.providerGone');
    expect(knownRefusal('reorderProviders', refusal(400, 'names: every provider once'))).toBe('failure.orderChanged');
    expect(knownRefusal('localModel', refusal(409, 'A download is running.'))).toBe('failure.downloadRunning');
    expect(knownRefusal('addProvider', refusal(400, 'baseURL: must be an http(s) URL'))).toBeNull();
  });

  it('reads a 404 on a list as the role having gone', () => {
    expect(knownRefusal('load', refusal(404, 'Not found'))).toBe('failure.notOperator');
    expect(knownRefusal('loadPerson', refusal(404, 'No account has this id.'))).toBe('failure.personGone');
  });

  it('leaves what it does not know to Kasa’s own words, or the browser’s in the interface language', () => {
    const t = translatorFor('fr', french);
    expect(knownRefusal('suspend', refusal(400, 'reason: must say why'))).toBeNull();
    expect(describeAdminFailure(t, 'suspend', refusal(400, 'reason: must say why'))).toBe('400: reason: must say why.');
    expect(describeAdminFailure(t, 'load', new TypeError('Failed to fetch'))).toBe(
      'Impossible de joindre Kasa. Vérifiez votre connexion et réessayez.',
    );
    expect(describeAdminFailure(t, 'suspend', refusal(409, 'already'), { self: true })).toBe(
      'Vous ne pouvez pas vous suspendre vous-même.',
    );
  });
});
