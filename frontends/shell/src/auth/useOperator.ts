import { useIsFetching } from '@tanstack/react-query';
import { authMeQueryKey, useAuth } from '@kasa/api-client';
import type { MeUser, User } from '@kasa/contracts';

/**
 * Whether a person is an operator, as GET /api/auth/me says (`user.operator`); undefined when the record does not say,
 * as the user cached from a sign-in's answer until `me` has answered.
 */
export function operatorOf(user: User | MeUser | null): boolean | undefined {
  if (!user || !('operator' in user)) return undefined;
  return user.operator === true;
}

/** Whether the signed-in person is an operator, and whether the shell is still finding out. */
export interface OperatorState {
  /** True for an operator; false for anyone else, or while unknown. */
  data: boolean;
  /** Signed in, and GET /api/auth/me has not said yet. */
  isPending: boolean;
}

/**
 * Whether the signed-in person is an operator: read from the person's own record (GET /api/auth/me, cached 5 minutes
 * like any use of it), so knowing costs no request of its own. The server reads the role afresh on every `me`, so a
 * removed or suspended operator loses the console link at the next refresh; /api/admin answers them 404 at once.
 */
export function useIsOperator(): OperatorState {
  const { user, isAuthenticated, isLoading } = useAuth();
  const refreshing = useIsFetching({ queryKey: authMeQueryKey }) > 0;
  const operator = isAuthenticated ? operatorOf(user) : false;
  return {
    data: operator === true,
    isPending: isLoading || (operator === undefined && refreshing),
  };
}
