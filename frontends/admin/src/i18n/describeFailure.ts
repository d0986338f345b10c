import { isApiError } from '@kasa/api-client';
import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { useCallback } from 'react';
import { useT, type MessageId, type Translate } from './useT';

/** What the console asks of the API, for the words of its refusals. */
export type AdminAction =
  | 'load'
  | 'loadPerson'
  | 'suspend'
  | 'restore'
  | 'changePlan'
  | 'addOperator'
  | 'removeOperator'
  | 'grantEnterprise'
  | 'addProvider'
  | 'updateProvider'
  | 'removeProvider'
  | 'reorderProviders'
  | 'testProvider'
  | 'localModel';

/** What the console knows about the request that a refusal may depend on. */
export interface FailureContext {
  /** The operator acted on their own account. */
  self?: boolean;
  /** The operator named is one of KASA_OPERATOR_EMAILS. */
  configured?: boolean;
}

function hasDetail(error: unknown, name: string): boolean {
  if (!isApiError(error)) return false;
  const details = (error.body as { details?: unknown } | undefined)?.details;
  return typeof details === 'object' && details !== null && name in details;
}

/** The console's own sentence for a refusal it knows (a 404 or a 409 of the operators' API), else none. */
export function knownRefusal(action: AdminAction, error: unknown, context: FailureContext = {}): MessageId | null {
  if (!isApiError(error)) return null;
  const { status } = error;
  switch (action) {
    case 'load':
      // Every /api/admin route is a 404 to someone who is not an operator (any more).
      return status === 404 ? 'failure.notOperator' : null;
    case 'loadPerson':
      return status === 404 ? 'failure.personGone' : null;
    case 'suspend':
      if (status === 409) return context.self ? 'failure.suspendSelf' : 'failure.alreadySuspended';
      return status === 404 ? 'failure.personGone' : null;
    case 'restore':
      if (status === 409) return 'failure.notSuspended';
      return status === 404 ? 'failure.personGone' : null;
    case 'changePlan':
      // The server names the tier when the person is on it already; otherwise a processor renews their plan.
      if (status === 409) return hasDetail(error, 'tier') ? 'failure.samePlan' : 'failure.processorRenews';
      return status === 404 ? 'failure.personGone' : null;
    case 'grantEnterprise':
      if (status === 409) return 'failure.processorRenews';
      return status === 404 ? 'failure.inquiryGone' : null;
    case 'addOperator':
      return status === 404 ? 'failure.noAccount' : null;
    case 'removeOperator':
      if (status === 409) return context.configured ? 'failure.configuredOperator' : 'failure.removeSelf';
      return status === 404 ? 'failure.notAnOperator' : null;
    case 'addProvider':
      return status === 409 ? 'failure.providerExists' : null;
    case 'updateProvider':
    case 'removeProvider':
      // Only a provider added in the console changes here; one from the environment is a 409.
      if (status === 409) return 'failure.providerFromEnvironment';
      return status === 404 ? 'failure.providerGone' : null;
    case 'reorderProviders':
      // The order must name every provider once: someone else added or removed one meanwhile.
      return status === 400 || status === 409 ? 'failure.orderChanged' : null;
    case 'testProvider':
      return status === 404 ? 'failure.providerGone' : null;
    case 'localModel':
      return status === 409 ? 'failure.downloadRunning' : null;
  }
}

/** A failure in words: the console's sentence for the refusals it knows, otherwise what Kasa said or the browser's. */
export function describeAdminFailure(
  t: Translate,
  action: AdminAction,
  error: unknown,
  context: FailureContext = {},
): string {
  const known = knownRefusal(action, error, context);
  return known ? t(known) : describeFailureIn(t, error);
}

/** describeAdminFailure in the current language. */
export function useDescribeFailure(): (action: AdminAction, error: unknown, context?: FailureContext) => string {
  const t = useT();
  return useCallback(
    (action: AdminAction, error: unknown, context?: FailureContext) => describeAdminFailure(t, action, error, context),
    [t],
  );
}
