// The '@kasa/ui/routing' entry: what a remote needs to live under whatever address the shell mounts it at.
import { useLocation, useParams, useResolvedPath } from 'react-router-dom';

/**
 * Where a remote is mounted, for a remote the shell renders on a splat route (`chat/*`, `admin/*`): the address
 * without what its `*` matched, with no trailing slash (`/chat` for `/chat/42`). The remote builds its own links and
 * navigations on it, so it keeps working wherever the shell puts it. (Inside a splat route, React Router resolves
 * `.` against the whole address, splat included, so `useResolvedPath('.')` alone would move with it.)
 */
export function useBasePath(): string {
  const { pathname } = useLocation();
  const splat = useParams()['*'];
  const resolved = useResolvedPath('.').pathname;
  if (splat === undefined) return resolved.replace(/\/+$/, '') || '/';
  // The splat is decoded; the address may not be.
  let path = pathname;
  if (!path.endsWith(splat)) {
    try {
      path = decodeURIComponent(pathname);
    } catch {
      /* keep the address as it is */
    }
  }
  const base = path.endsWith(splat) ? path.slice(0, path.length - splat.length) : resolved;
  return base.replace(/\/+$/, '') || '/';
}
