import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { apiJson, authMeQueryKey, describeFailure, isApiError, useAuth } from '@kasa/api-client';
import {
  Actions,
  Button,
  ButtonLink,
  Card,
  InlineError,
  Muted,
  PageContainer,
  SkeletonBar,
  VisuallyHidden,
} from '@kasa/ui';
import { keepSetupToken, pendingSetupToken } from '../auth/setupToken';
import { useIsOperator } from '../auth/useOperator';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useT } from '../i18n/useT';

type Outcome = { kind: 'idle' } | { kind: 'claiming' } | { kind: 'done' } | { kind: 'failed'; message: string };

// The Connect AI step is its own chunk (with its messages): only an operator setting up AI downloads it.
const ConnectAiStep = lazy(() => import(/* webpackChunkName: "setup-ai" */ '../setup/ConnectAiStep'));

/** The Connect AI step (`standalone`: the page's only card, titled by it), and what shows while its code loads. */
function AiStep({ standalone = false }: { standalone?: boolean }) {
  const t = useT();
  return (
    <Suspense
      fallback={
        <div
          role="status"
          aria-busy="true"
          style={{ marginTop: standalone ? 0 : '1.5rem', display: 'grid', gap: '0.625rem' }}
        >
          <VisuallyHidden>{t('setup.aiLoading')}</VisuallyHidden>
          <SkeletonBar width="40%" height="1.75rem" />
          <SkeletonBar width="85%" />
          <SkeletonBar width="70%" />
        </div>
      }
    >
      <ConnectAiStep standalone={standalone} />
    </Suspense>
  );
}

/**
 * Route `/setup?token=…`: the first-run setup link that `npm start` prints while nobody runs this Kasa. The signed-in
 * person who opens it becomes the operator (POST /api/auth/operator-setup); someone signed out signs up or in first,
 * and comes back here with the link kept for them. Then the Connect AI step follows; `/setup?step=ai` opens that step
 * again at any time, for operators only.
 */
export default function SetupPage() {
  const t = useT();
  useDocumentTitle(t('setup.title'));
  const [params, setParams] = useSearchParams();
  // Each visit (the navigation's "Set up AI" included, from this very page) starts the step afresh.
  const visit = useLocation().key;
  const { isAuthenticated, isLoading } = useAuth();
  const operator = useIsOperator();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const fromLink = params.get('token');
  const aiStep = params.get('step') === 'ai';
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
      // The person's record now says operator: the navigation offers the console and "Set up AI".
      void queryClient.invalidateQueries({ queryKey: authMeQueryKey });
      // A reload (or coming back later) opens the Connect AI step.
      setParams({ step: 'ai' }, { replace: true });
    } catch (error) {
      const invalid = isApiError(error) && error.status === 400;
      if (invalid) keepSetupToken(null);
      setOutcome({ kind: 'failed', message: invalid ? t('setup.invalid') : describeFailure(error) });
    }
  };

  let body;
  let heading = t('setup.heading');
  let step = false;
  if (outcome.kind === 'done') {
    heading = t('setup.done');
    body = <Muted>{t('setup.doneText')}</Muted>;
    step = true;
  } else if (outcome.kind === 'failed' && !token) {
    // The server refused the link (used, replaced or expired): it is forgotten, and the page says what to do.
    body = <InlineError role="alert">{outcome.message}</InlineError>;
  } else if (aiStep && !token) {
    heading = t('setup.aiTitle');
    if (isLoading || (isAuthenticated && operator.isPending))
      body = <Muted role="status">{t('setup.aiLoading')}</Muted>;
    else if (!isAuthenticated)
      body = (
        <>
          <Muted>{t('setup.aiSignIn')}</Muted>
          <ButtonLink to="/auth">{t('setup.signIn')}</ButtonLink>
        </>
      );
    else if (!operator.data) body = <Muted>{t('setup.aiOperatorsOnly')}</Muted>;
    else
      return (
        <PageContainer narrow>
          <AiStep key={visit} standalone />
        </PageContainer>
      );
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
        <h1 id="setup-title">{heading}</h1>
        {body}
      </Card>
      {step ? <AiStep key={visit} /> : null}
    </PageContainer>
  );
}
