// The '@kasa/ui/standalone' entry: what a remote needs to run alone, outside the shell (its dev server, or its
// dist/index.html): what the shell provides in the product (a query client, a router, the theme's variables and
// base styles), and its routes behind a bare sign-in form. Only a remote's standalone bootstrap loads it, never a
// page of the product, so it is not a shared module.
import { Global, css } from '@emotion/react';
import { StrictMode, useState, type FormEvent, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { completeSignIn, createQueryClient, login, useAuth } from '@kasa/api-client';
import { RemoteCatalogue, useTranslator, type Catalogue, type CatalogueLoaders, type Translator } from '@kasa/i18n';
import { Button, Muted, TextInput } from '@kasa/ui';
import type { StandaloneMessageId } from './messages';
import { themeTokens } from './tokens';

/**
 * The shell's first-visit theme (light, Kasa's own electric scheme, normal contrast), from the same tokens. The
 * radius is one of the shell's theme settings, not a token: its default is repeated here.
 */
const rootVariables = Object.entries(themeTokens('light', 'electric', false))
  .map(([name, value]) => `${name}: ${value};`)
  .join('\n');

const standaloneStyles = css`
  :root {
    ${rootVariables}
    --kasa-radius: 8px;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  body {
    margin: 0;
    background: var(--kasa-bg);
    color: var(--kasa-fg);
    font-family:
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      'Noto Sans',
      sans-serif;
    line-height: 1.5;
  }
  :focus-visible {
    outline: 3px solid var(--kasa-focus);
    outline-offset: 2px;
  }
`;

/** The theme's variables and the page's base styles, which the shell sets in the product. */
export function StandaloneStyles() {
  return <Global styles={standaloneStyles} />;
}

/** Renders a remote's standalone page (`app`, e.g. its StandaloneApp) into the page's #root. */
export function mountStandalone(app: ReactNode): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <BrowserRouter>
          <StandaloneStyles />
          {app}
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

/**
 * A failed sign-in in words for the person. `t` reads the remote's catalogue, for a remote that words failures
 * itself (e.g. with `describeFailureIn` from '@kasa/api-client/describeFailureIn').
 */
export type DescribeFailure = (failure: unknown, t: Translator<string>) => string;

/** Running alone there is no shell to sign in with: a bare sign-in form against the platform's API. */
export function StandaloneSignIn({ describeFailure }: { describeFailure: DescribeFailure }) {
  const translate = useTranslator<string>();
  const t: Translator<StandaloneMessageId> = translate;
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await completeSignIn(queryClient, await login({ email, password }));
    } catch (failure) {
      setError(describeFailure(failure, translate));
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
  const t = useTranslator<StandaloneMessageId>();
  return <Muted role="status">{t('common.loading')}</Muted>;
}

export interface StandaloneAppProps {
  /** The remote's catalogues, as RemoteCatalogue takes them. */
  english: Catalogue;
  loaders: CatalogueLoaders;
  /** The remote's route (e.g. `chat/*`): its app when signed in, the sign-in form otherwise. */
  path: string;
  /** Where every other path goes (e.g. `/chat`). */
  home: string;
  describeFailure: DescribeFailure;
  /** The remote's app, as the shell mounts it on `path`. */
  children: ReactNode;
}

/** A remote's routes when it runs alone, in its own catalogue; in the product the shell mounts its app. */
export function StandaloneApp({ english, loaders, path, home, describeFailure, children }: StandaloneAppProps) {
  const { isAuthenticated, isLoading } = useAuth();
  return (
    <RemoteCatalogue english={english} loaders={loaders}>
      {isLoading ? (
        <Loading />
      ) : (
        <main id="main">
          <Routes>
            <Route
              path={path}
              element={isAuthenticated ? children : <StandaloneSignIn describeFailure={describeFailure} />}
            />
            <Route path="*" element={<Navigate to={home} replace />} />
          </Routes>
        </main>
      )}
    </RemoteCatalogue>
  );
}
