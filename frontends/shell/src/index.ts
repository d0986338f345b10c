// Async boundary: the federation runtime negotiates the shared singletons before any of them runs (bootstrap).
// Meanwhile remotes.json is fetched and, on `/`, the landing page's remote starts loading, so the hero does not
// wait for React to start before its files are requested. (manifest.ts uses no shared module, so it may load
// before the boundary.)
import { ensureRemotesRegistered, preloadRemoteModule } from './remotes/manifest';

if (window.location.pathname === '/') preloadRemoteModule('marketing/LandingPage');
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
