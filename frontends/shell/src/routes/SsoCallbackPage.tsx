import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthResponse, SsoErrorReason } from '@kasa/contracts';
import { apiJson, completeSignIn, describeFailure, isApiError } from '@kasa/api-client';
import { ButtonLink, Card, InlineError, Muted, PageContainer } from '@kasa/ui';
import { pendingSetupToken } from '../auth/setupToken';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useT, type MessageId } from '../i18n/useT';

const reasonMessages: Record<SsoErrorReason, MessageId> = {
  invalid_state: 'sso.error.invalid_state',
  wrong_audience: 'sso.error.wrong_audience',
  token_expired: 'sso.error.token_expired',
  token_invalid: 'sso.error.token_invalid',
  domain_not_in_team: 'sso.error.domain_not_in_team',
  email_not_verified: 'sso.error.email_not_verified',
  account_in_other_team: 'sso.error.account_in_other_team',
  account_suspended: 'sso.error.account_suspended',
  no_seats: 'sso.error.no_seats',
  idp_error: 'sso.error.idp_error',
};

const isReason = (value: string | null): value is SsoErrorReason =>
  value !== null && Object.prototype.hasOwnProperty.call(reasonMessages, value);

type Outcome = { kind: 'working' } | { kind: 'failed'; message: string };

/**
 * Route `/auth/sso/callback`: where single sign-on comes back. `#code=…` is exchanged once for the session (the code
 * leaves the address bar at once, like the setup link); `?error=<reason>` says in plain words why it did not work.
 */
export default function SsoCallbackPage() {
  const t = useT();
  useDocumentTitle(t('sso.title'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Read once: the first render clears the address bar, and a second effect run must not exchange the code again.
  const arrival = useRef<{ code: string | null; error: string | null } | null>(null);
  arrival.current ??= {
    code: new URLSearchParams(window.location.hash.slice(1)).get('code'),
    error: new URLSearchParams(window.location.search).get('error'),
  };
  const [outcome, setOutcome] = useState<Outcome>(() => {
    const { code, error } = arrival.current!;
    if (code) return { kind: 'working' };
    return { kind: 'failed', message: t(isReason(error) ? reasonMessages[error] : 'sso.error.unknown') };
  });
  const exchanged = useRef(false);

  useEffect(() => {
    window.history.replaceState(window.history.state, '', '/auth/sso/callback');
    const code = arrival.current?.code;
    if (!code || exchanged.current) return;
    exchanged.current = true;
    apiJson<AuthResponse>('POST', '/api/auth/sso/complete', { code })
      .then(async (response) => {
        await completeSignIn(queryClient, response).catch(() => undefined);
        navigate(pendingSetupToken() ? '/setup' : '/chat', { replace: true });
      })
      .catch((error: unknown) => {
        const message =
          isApiError(error) && error.status === 401
            ? t('sso.expired')
            : isApiError(error) && error.status === 403
              ? t('sso.error.account_suspended')
              : describeFailure(error);
        setOutcome({ kind: 'failed', message });
      });
  }, [navigate, queryClient, t]);

  return (
    <PageContainer narrow>
      <Card aria-labelledby="sso-title">
        <h1 id="sso-title">{outcome.kind === 'working' ? t('sso.title') : t('sso.failedTitle')}</h1>
        {outcome.kind === 'working' ? (
          <Muted role="status" aria-live="polite">
            {t('sso.working')}
          </Muted>
        ) : (
          <>
            <InlineError role="alert">{outcome.message}</InlineError>
            <ButtonLink to="/auth">{t('sso.tryAgain')}</ButtonLink>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
