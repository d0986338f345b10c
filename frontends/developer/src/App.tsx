import { useState, type FormEvent } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { completeSignIn, describeFailure, login, useAuth } from '@kasa/api-client';
import DeveloperApp from './DeveloperApp';
import { Button, Muted, TextInput } from './ui/controls';

/** Running alone there is no shell to sign in with: a bare sign-in form against the platform's API. */
function StandaloneSignIn() {
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
      <h1>Sign in to the developer portal</h1>
      <label htmlFor="standalone-email">Email</label>
      <TextInput id="standalone-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor="standalone-password">Password</label>
      <TextInput
        id="standalone-password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {error ? <Muted role="alert">{error}</Muted> : null}
      <Button type="submit" style={{ marginTop: '1rem' }}>
        Sign In
      </Button>
    </form>
  );
}

/** The portal's route when running alone; in the product the shell mounts DeveloperApp on /developer. */
export function App() {
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <Muted role="status">Loading…</Muted>;
  return (
    <main id="main">
      <Routes>
        <Route path="developer" element={isAuthenticated ? <DeveloperApp /> : <StandaloneSignIn />} />
        <Route path="*" element={<Navigate to="/developer" replace />} />
      </Routes>
    </main>
  );
}
