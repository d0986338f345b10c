import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth, type AuthState } from '@kasa/api-client';

/** Spec section 4: protected pages redirect to /auth once the auth state has loaded and nobody is signed in. */
export function useRedirectWhenSignedOut(): AuthState {
  const auth = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (!auth.isLoading && !auth.isAuthenticated) navigate('/auth', { replace: true });
  }, [auth.isLoading, auth.isAuthenticated, navigate]);
  return auth;
}
