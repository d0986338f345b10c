/**
 * The part of React Router that Kasa's frontends share, provided to the federation share scope under the key
 * `react-router-dom` (see shared.js). React Router ships one large module (data routers, server rendering,
 * cookies, sessions); shared modules are never tree-shaken, so sharing it whole costs ~66 KB gzip on every first
 * load, this subset ~16 KB, which keeps the web budget (200 KB for the shell plus the route's remote).
 *
 * Every frontend's tsconfig maps `react-router-dom` to this file, so using anything not listed here fails the
 * typecheck. To add an export: add it here, rebuild and deploy the shell before (or with) the remote that needs
 * it, since the shell's copy is the one every remote receives.
 */
export {
  BrowserRouter,
  MemoryRouter,
  Routes,
  Route,
  Link,
  NavLink,
  Navigate,
  Outlet,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
  useMatch,
  useOutletContext,
  useHref,
  useResolvedPath,
  useInRouterContext,
  generatePath,
  matchPath,
  createSearchParams,
} from 'react-router';
export type {
  LinkProps,
  NavLinkProps,
  NavigateOptions,
  NavigateFunction,
  Location,
  Params,
  PathMatch,
  RouteObject,
  To,
} from 'react-router';
