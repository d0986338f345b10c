import styled from '@emotion/styled';
import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { RemoteErrorBoundary } from '../remotes/RemoteErrorBoundary';
import { PageSkeleton } from '@kasa/ui';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import { TestModeBanner } from './TestModeBanner';
import { useT } from '../i18n/useT';

const SkipLink = styled.a`
  position: absolute;
  inset-inline-start: 0.5rem;
  top: -3rem;
  z-index: 20;
  padding: 0.5rem 1rem;
  border-radius: var(--kasa-radius);
  background: var(--kasa-primary);
  color: var(--kasa-primary-fg);
  &:focus {
    top: 0.5rem;
  }
`;

const Main = styled.main`
  flex: 1;
  width: 100%;
  &:focus {
    outline: none;
  }
`;

/**
 * The part of a path that names a page: /chat/<session id> is still the chat page, whose own navigation between
 * conversations must neither remount it nor move focus away from its composer; /admin/<section> is still the
 * operator console, whose sections are tabs that keep the focus as the arrow keys move between them.
 */
export function pageOf(pathname: string): string {
  if (pathname.startsWith('/chat/')) return '/chat';
  if (pathname.startsWith('/admin/')) return '/admin';
  return pathname;
}

/**
 * The test-mode banner (when payments take no money), navigation bar, the routed page (in a boundary, so a failing
 * page never blanks the app) and the footer.
 */
export function Layout() {
  const page = pageOf(useLocation().pathname);
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  const t = useT();

  // After a client-side navigation, start at the top and move focus to the new page, as a page load would.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [page]);

  return (
    <>
      <SkipLink href="#main">{t('layout.skip')}</SkipLink>
      <TestModeBanner />
      <NavBar />
      <Main id="main" ref={main} tabIndex={-1}>
        <RemoteErrorBoundary key={page} name="this page" onRetry={() => window.location.reload()}>
          <Suspense fallback={<PageSkeleton label={t('layout.loading')} />}>
            <Outlet />
          </Suspense>
        </RemoteErrorBoundary>
      </Main>
      <Footer />
    </>
  );
}
