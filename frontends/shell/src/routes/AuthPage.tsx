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
import { Button, ButtonLink, Card, Muted, PageContainer } from '../ui/controls';
import { Field } from '../ui/Field';
import { Tabs } from '../ui/Tabs';

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

const failureCopy: Record<FailureKind, { failed: string; fallback: string; unexpected: string }> = {
  login: { failed: 'Login Failed', fallback: 'Invalid email or password', unexpected: 'Login Error' },
  register: { failed: 'Registration Failed', fallback: 'Unable to create account', unexpected: 'Registration Error' },
};

/**
 * Spec section 8. The server said no (a 4xx, or a 5xx that explains itself, or an OK answer without a token):
 * 'Login Failed' / 'Registration Failed' with its message or the fallback. Anything else (network down, a
 * bare 5xx, a broken answer): 'Login Error' / 'Registration Error', 'An unexpected error occurred'.
 */
function reportFailure(kind: FailureKind, error: unknown): void {
  const copy = failureCopy[kind];
  if (error instanceof AuthRejectedError) {
    toast({ title: copy.failed, description: error.message || copy.fallback, variant: 'destructive' });
    return;
  }
  if (isApiError(error)) {
    const apiError: ApiError = error;
    if (apiError.status < 500 || apiError.serverMessage) {
      toast({ title: copy.failed, description: apiError.serverMessage || copy.fallback, variant: 'destructive' });
      return;
    }
  }
  toast({ title: copy.unexpected, description: 'An unexpected error occurred', variant: 'destructive' });
}

function missingInformation(): void {
  toast({ title: 'Missing Information', description: 'Please fill in all fields', variant: 'destructive' });
}

function useSubmit(kind: FailureKind) {
  const [submitting, setSubmitting] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const run = async (call: () => ReturnType<typeof login>) => {
    setSubmitting(true);
    try {
      const response = await call();
      // Token stored and user cached now; the refresh of the user query runs in the background.
      void completeSignIn(queryClient, response).catch(() => undefined);
      navigate('/chat');
    } catch (error) {
      reportFailure(kind, error);
      setSubmitting(false);
    }
  };
  return { submitting, run };
}

function SignInForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submitting, run } = useSubmit('login');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!email.trim() || !password) return missingInformation();
    void run(() => login({ email: email.trim(), password }));
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in" aria-busy={submitting}>
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
        disabled={submitting}
      />
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onValueChange={setPassword}
        disabled={submitting}
      />
      <Submit type="submit" disabled={submitting}>
        Sign In
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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!username.trim() || !email.trim() || !password) return missingInformation();
    if (password !== confirmPassword) {
      toast({ title: 'Password Mismatch', description: 'Passwords do not match', variant: 'destructive' });
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      toast({
        title: 'Weak Password',
        description: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
        variant: 'destructive',
      });
      return;
    }
    void run(() => register({ username: username.trim(), email: email.trim(), password }));
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign up" aria-busy={submitting}>
      <Field
        label="Username"
        autoComplete="username"
        value={username}
        onValueChange={setUsername}
        disabled={submitting}
      />
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
        disabled={submitting}
      />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onValueChange={setPassword}
        disabled={submitting}
      />
      <Field
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onValueChange={setConfirmPassword}
        disabled={submitting}
      />
      <Submit type="submit" disabled={submitting}>
        Create Account
      </Submit>
    </form>
  );
}

type AuthTab = 'signin' | 'signup';

/** Route `/auth`: tabbed Sign In and Sign Up. Signed-in visitors go straight to /chat. */
export default function AuthPage() {
  useDocumentTitle('Sign In');
  const { isLoading, isAuthenticated } = useAuth();
  const [tab, setTab] = useState<AuthTab>('signin');

  if (isLoading) {
    return (
      <Checking role="status" aria-live="polite">
        Checking authentication...
      </Checking>
    );
  }
  if (isAuthenticated) return <Navigate to="/chat" replace />;

  return (
    <PageContainer narrow>
      <Card aria-labelledby="auth-title">
        <Heading id="auth-title">Welcome to Kasa</Heading>
        <Intro>Sign in to your account or create a new one.</Intro>
        <Tabs<AuthTab>
          label="Account"
          selected={tab}
          onSelect={setTab}
          items={[
            { key: 'signin', label: 'Sign In', panel: <SignInForm /> },
            { key: 'signup', label: 'Sign Up', panel: <SignUpForm /> },
          ]}
        />
      </Card>
      <Below>
        <ButtonLink to="/" variant="secondary">
          Back to Home
        </ButtonLink>
        <span>
          Free plan: 1K API calls a month. <Link to="/pricing">View Pricing</Link>
        </span>
      </Below>
    </PageContainer>
  );
}
