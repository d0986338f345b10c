import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { apiJson, describeFailure, isApiError, useAuth } from '@kasa/api-client';
import { Actions, Button, ButtonLink, Card, InlineError, Muted, PageContainer } from '@kasa/ui';
import { keepSetupToken, pendingSetupToken } from '../auth/setupToken';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useT } from '../i18n/useT';

type Outcome = { kind: 'idle' } | { kind: 'claiming' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * Route `/setup?token=…`: the first-run setup link that `npm start` prints while nobody runs this Kasa. The signed-in
 * person who opens it becomes the operator (POST /api/auth/operator-setup); someone signed out signs up or in first,
 * and comes back here with the link kept for them.
 */
export default function SetupPage() {
  const t = useT();
  useDocumentTitle(t('setup.title'));
  const [params, setParams] = useSearchParams();
  const { isAuthenticated, isLoading } = useAuth();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const fromLink = params.get('token');
  const token = fromLink ?? pendingSetupToken();

  // The secret leaves the address bar (and so the history and any screenshot) at once; this tab keeps it.
  useEffect(() => {
    if (!fromLink) return;
    keepSetupToken(fromLink);
    setParams({}, { replace: true });
  }, [fromLink, setParams]);

  const claim = async () => {
    if (!token) return;
    setOutcome({ kind: 'claiming' });
    try {
      await apiJson('POST', '/api/auth/operator-setup', { token });
      keepSetupToken(null);
      setOutcome({ kind: 'done' });
    } catch (error) {
      const invalid = isApiError(error) && error.status === 400;
      if (invalid) keepSetupToken(null);
      setOutcome({ kind: 'failed', message: invalid ? t('setup.invalid') : describeFailure(error) });
    }
  };

  let body;
  if (outcome.kind === 'done') {
    body = (
      <>
        <Muted>{t('setup.doneText')}</Muted>
        <ButtonLink to="/chat">{t('setup.toChat')}</ButtonLink>
      </>
    );
  } else if (outcome.kind === 'failed' && !token) {
    // The server refused the link (used, replaced or expired): it is forgotten, and the page says what to do.
    body = <InlineError role="alert">{outcome.message}</InlineError>;
  } else if (!token) {
    body = <Muted>{t('setup.noToken')}</Muted>;
  } else if (!isAuthenticated) {
    body = (
      <>
        <Muted>{t('setup.signInFirst')}</Muted>
        {!isLoading && <ButtonLink to="/auth">{t('setup.signIn')}</ButtonLink>}
      </>
    );
  } else {
    body = (
      <>
        <Muted>{t('setup.intro')}</Muted>
        {outcome.kind === 'failed' && <InlineError role="alert">{outcome.message}</InlineError>}
        <Actions>
          <Button onClick={() => void claim()} disabled={outcome.kind === 'claiming'}>
            {outcome.kind === 'claiming' ? t('setup.claiming') : t('setup.claim')}
          </Button>
        </Actions>
      </>
    );
  }
  return (
    <PageContainer narrow>
      <Card aria-labelledby="setup-title">
        <h1 id="setup-title">{outcome.kind === 'done' ? t('setup.done') : t('setup.heading')}</h1>
        {body}
      </Card>
    </PageContainer>
  );
}
