// Async boundary: the federation runtime negotiates the shared singletons before any of them runs (bootstrap).
// Meanwhile remotes.json is fetched and, on `/` (or a signed-in `/chat`), the page's remote starts loading, so the
// page does not wait for React to start before its files are requested. (manifest.ts uses no shared module, so it
// may load before the boundary.)
import { ensureRemotesRegistered, preloadRemoteModule } from './remotes/manifest';

function hasStoredToken(): boolean {
  try {
    return Boolean(window.localStorage.getItem('kasa_auth_token'));
  } catch {
    return false;
  }
}

const { pathname } = window.location;
if (pathname === '/') preloadRemoteModule('marketing/LandingPage');
// A signed-in visit to /chat (the token key of @kasa/api-client, read directly: no shared module may load here).
else if (/^\/chat(\/|$)/.test(pathname) && hasStoredToken()) preloadRemoteModule('chat/ChatApp');
// A shared conversation's link: its page, fetched while the frame starts.
else if (/^\/share\/[^/]+$/.test(pathname)) preloadRemoteModule('chat/SharedConversation');
else
  ensureRemotesRegistered().catch(() => {
    // Reported where it matters: a page that needs a remote shows an error card with Retry.
  });

import('./bootstrap').catch((error: unknown) => {
  console.error('Kasa failed to start', error);
  const root = document.getElementById('root');
  if (root) {
    root.innerHTML =
      '<p role="alert" style="margin:3rem auto;max-width:32rem;text-align:center">Kasa could not start. ' +
      'Check your connection and <a href="">reload the page</a>.</p>';
  }
});
