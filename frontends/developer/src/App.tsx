import { useState, type FormEvent } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { completeSignIn, login, useAuth } from '@kasa/api-client';
import { RemoteCatalogue } from '@kasa/i18n';
import DeveloperApp from './DeveloperApp';
import { DEVELOPER_ENGLISH, DEVELOPER_LOADERS } from './i18n/catalogues';
import { useDescribeFailure } from './i18n/describeFailure';
import { useT } from './i18n/useT';
import { Button, Muted, TextInput } from '@kasa/ui';

/** Running alone there is no shell to sign in with: a bare sign-in form against the platform's API. */
function StandaloneSignIn() {
  const t = useT();
  const describeFailure = useDescribeFailure();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await completeSignIn(queryClient, await login({ email, password }));
    } catch (failure) {
      setError(describeFailure(failure));
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} style={{ maxWidth: '22rem', margin: '3rem auto' }}>
      <h1>{t('standalone.title')}</h1>
      <label htmlFor="standalone-email">{t('standalone.email')}</label>
      <TextInput id="standalone-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor="standalone-password">{t('standalone.password')}</label>
      <TextInput
        id="standalone-password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {error ? <Muted role="alert">{error}</Muted> : null}
      <Button type="submit" style={{ marginTop: '1rem' }}>
        {t('standalone.signIn')}
      </Button>
    </form>
  );
}

function Loading() {
  const t = useT();
  return <Muted role="status">{t('common.loading')}</Muted>;
}

/** The portal's route when running alone; in the product the shell mounts DeveloperApp on /developer. */
export function App() {
  const { isAuthenticated, isLoading } = useAuth();
  return (
    <RemoteCatalogue english={DEVELOPER_ENGLISH} loaders={DEVELOPER_LOADERS}>
      {isLoading ? (
        <Loading />
      ) : (
        <main id="main">
          <Routes>
            <Route path="developer" element={isAuthenticated ? <DeveloperApp /> : <StandaloneSignIn />} />
            <Route path="*" element={<Navigate to="/developer" replace />} />
          </Routes>
        </main>
      )}
    </RemoteCatalogue>
  );
}
