import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { signOutLocally, useAuth } from '@kasa/api-client';

/**
 * Spec section 4: when the user lookup fails while a token exists, sign out automatically (token and every
 * cached query gone), staying in the app. Mounted once by the shell.
 */
export function AuthSession() {
  const { isError } = useAuth();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (isError) signOutLocally(queryClient);
  }, [isError, queryClient]);
  return null;
}
