import { Global, css } from '@emotion/react';
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
  /* The chat's frame: the screen below the navigation bar, which the chat fills (it scrolls its own lists). Should
     its content ever be taller than the room (a phone held sideways), the page's own part scrolls, not the page. */
  &[data-frame='screen'] {
    position: relative;
    display: flex;
    flex-direction: column;
    min-height: 0;
    overflow-y: auto;
  }
`;

/**
 * The chat holds the screen as an app does: the page is exactly the height of the screen (100dvh follows a phone's
 * browser bars, and the on-screen keyboard, which the viewport meta tag makes resize the layout), so the navigation
 * bar and the composer stay put and only the chat's own lists scroll.
 */
const screenFrame = css`
  /* Not the 100vh of other pages: on a phone that is the screen without the browser's bars, taller than what shows. */
  body {
    min-height: 0;
  }
  #root {
    height: 100vh;
    height: 100dvh;
    min-height: 0;
  }
`;

/**
 * How a page sits in the window. `page`: a document with the footer under it, scrolled as a whole (the public
 * pages, settings). `screen`: the chat, which holds the screen as an app does (see `screenFrame`), without the
 * footer. `portal`: the developer portal, a tool rather than a page of the site: no footer, the navigation bar on
 * top while its long panels scroll.
 */
export type Frame = 'page' | 'screen' | 'portal';

export function frameOf(page: string): Frame {
  if (page === '/chat') return 'screen';
  if (page === '/developer') return 'portal';
  return 'page';
}

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
 * page never blanks the app) and the footer, except on the chat and the portal (see `frameOf`).
 */
export function Layout() {
  const page = pageOf(useLocation().pathname);
  const frame = frameOf(page);
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
    main.current?.scrollTo?.(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [page]);

  return (
    <>
      {frame === 'screen' ? <Global styles={screenFrame} /> : null}
      <SkipLink href="#main">{t('layout.skip')}</SkipLink>
      <TestModeBanner />
      <NavBar />
      <Main id="main" ref={main} tabIndex={-1} data-frame={frame}>
        <RemoteErrorBoundary key={page} name="this page" onRetry={() => window.location.reload()}>
          <Suspense fallback={<PageSkeleton label={t('layout.loading')} />}>
            <Outlet />
          </Suspense>
        </RemoteErrorBoundary>
      </Main>
      {frame === 'page' ? <Footer /> : null}
    </>
  );
}
