import styled from '@emotion/styled';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  AuthRejectedError,
  completeSignIn,
  isApiError,
  login,
  register,
  useAuth,
  type ApiError,
} from '@kasa/api-client';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { toast } from '../toast/toastStore';
import { Button, ButtonLink, Card, Muted, PageContainer } from '@kasa/ui';
import { Field, Tabs } from '@kasa/ui/widgets';
import { pendingSetupToken } from '../auth/setupToken';
import { SsoSignIn } from '../auth/SsoSignIn';
import { useT, type MessageId, type Translate } from '../i18n/useT';

/** Spec section 9: minimum password length. */
const MIN_PASSWORD_LENGTH = 6;

const Heading = styled.h1`
  margin: 0 0 0.25rem;
  font-size: 1.75rem;
  text-align: center;
`;

const Intro = styled(Muted)`
  margin: 0 0 1.5rem;
  text-align: center;
`;

const Submit = styled(Button)`
  width: 100%;
  margin-top: 0.5rem;
`;

const Below = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
  margin-top: 1.5rem;
`;

const Checking = styled.p`
  margin: 4rem auto;
  text-align: center;
  color: var(--kasa-muted);
`;

type FailureKind = 'login' | 'register';

const failureCopy: Record<FailureKind, { failed: MessageId; fallback: MessageId; unexpected: MessageId }> = {
  login: { failed: 'auth.loginFailed', fallback: 'auth.loginFallback', unexpected: 'auth.loginError' },
  register: { failed: 'auth.registerFailed', fallback: 'auth.registerFallback', unexpected: 'auth.registerError' },
};

/**
 * Spec section 8. The server said no (a 4xx, or a 5xx that explains itself, or an OK answer without a token):
 * 'Login Failed' / 'Registration Failed' with its message or the fallback. Anything else (network down, a
 * bare 5xx, a broken answer): 'Login Error' / 'Registration Error', 'An unexpected error occurred'.
 */
function reportFailure(t: Translate, kind: FailureKind, error: unknown): void {
  const copy = failureCopy[kind];
  if (error instanceof AuthRejectedError) {
    toast({ title: t(copy.failed), description: error.message || t(copy.fallback), variant: 'destructive' });
    return;
  }
  if (isApiError(error)) {
    const apiError: ApiError = error;
    if (apiError.status < 500 || apiError.serverMessage) {
      toast({ title: t(copy.failed), description: apiError.serverMessage || t(copy.fallback), variant: 'destructive' });
      return;
    }
  }
  toast({ title: t(copy.unexpected), description: t('auth.unexpected'), variant: 'destructive' });
}

function missingInformation(t: Translate): void {
  toast({ title: t('newsletter.missing'), description: t('auth.fillAll'), variant: 'destructive' });
}

function useSubmit(kind: FailureKind) {
  const [submitting, setSubmitting] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const t = useT();

  const run = async (call: () => ReturnType<typeof login>) => {
    setSubmitting(true);
    try {
      const response = await call();
      // Token stored and user cached now; the refresh of the user query runs in the background.
      void completeSignIn(queryClient, response).catch(() => undefined);
      // Someone who came from the first-run setup link goes back to it to finish.
      navigate(pendingSetupToken() ? '/setup' : '/chat');
    } catch (error) {
      reportFailure(t, kind, error);
      setSubmitting(false);
    }
  };
  return { submitting, run };
}

function SignInForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submitting, run } = useSubmit('login');
  const t = useT();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!email.trim() || !password) return missingInformation(t);
    void run(() => login({ email: email.trim(), password }));
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.signInForm')} aria-busy={submitting}>
      <Field
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
        disabled={submitting}
      />
      <Field
        label={t('auth.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onValueChange={setPassword}
        disabled={submitting}
      />
      <Submit type="submit" disabled={submitting}>
        {t('nav.signIn')}
      </Submit>
    </form>
  );
}

function SignUpForm() {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { submitting, run } = useSubmit('register');
  const t = useT();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!username.trim() || !email.trim() || !password) return missingInformation(t);
    if (password !== confirmPassword) {
      toast({ title: t('auth.mismatch'), description: t('auth.mismatchText'), variant: 'destructive' });
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      toast({
        title: t('auth.weak'),
        description: t('auth.weakText', { min: MIN_PASSWORD_LENGTH }),
        variant: 'destructive',
      });
      return;
    }
    void run(() => register({ username: username.trim(), email: email.trim(), password }));
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.signUpForm')} aria-busy={submitting}>
      <Field
        label={t('auth.username')}
        autoComplete="username"
        value={username}
        onValueChange={setUsername}
        disabled={submitting}
      />
      <Field
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
        disabled={submitting}
      />
      <Field
        label={t('auth.password')}
        type="password"
        autoComplete="new-password"
        value={password}
        onValueChange={setPassword}
        disabled={submitting}
      />
      <Field
        label={t('auth.confirmPassword')}
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onValueChange={setConfirmPassword}
        disabled={submitting}
      />
      <Submit type="submit" disabled={submitting}>
        {t('auth.create')}
      </Submit>
    </form>
  );
}

type AuthTab = 'signin' | 'signup';

/** Route `/auth`: tabbed Sign In and Sign Up. Signed-in visitors go straight to /chat. */
export default function AuthPage() {
  const t = useT();
  useDocumentTitle(t('nav.signIn'));
  const { isLoading, isAuthenticated } = useAuth();
  const [tab, setTab] = useState<AuthTab>('signin');

  if (isLoading) {
    return (
      <Checking role="status" aria-live="polite">
        {t('auth.checking')}
      </Checking>
    );
  }
  // Signed in: on to the chat, or back to the first-run setup link that sent the person here.
  if (isAuthenticated) return <Navigate to={pendingSetupToken() ? '/setup' : '/chat'} replace />;

  return (
    <PageContainer narrow>
      <Card aria-labelledby="auth-title">
        <Heading id="auth-title">{t('auth.welcome')}</Heading>
        <Intro>{t('auth.intro')}</Intro>
        <Tabs<AuthTab>
          label={t('settings.account')}
          selected={tab}
          onSelect={setTab}
          items={[
            {
              key: 'signin',
              label: t('nav.signIn'),
              panel: (
                <>
                  <SignInForm />
                  <SsoSignIn />
                </>
              ),
            },
            { key: 'signup', label: t('auth.signUp'), panel: <SignUpForm /> },
          ]}
        />
      </Card>
      <Below>
        <ButtonLink to="/" variant="secondary">
          {t('common.backHome')}
        </ButtonLink>
        <span>
          {t('auth.freePlan')} <Link to="/pricing">{t('auth.viewPricing')}</Link>
        </span>
      </Below>
    </PageContainer>
  );
}
