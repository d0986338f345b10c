import { lazy, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AuthSession } from './auth/AuthSession';
import { Layout } from './layout/Layout';
import { DocumentTitle } from './layout/useDocumentTitle';
import { RemotePage } from './remotes/RemotePage';
import { GlobalStyles } from './theme/GlobalStyles';
import { ThemeProvider } from './theme/ThemeProvider';
import { ThemeSync } from './theme/ThemeSync';
import { Toaster } from './toast/Toaster';
import { TourProvider } from './tours/TourProvider';

// Shell pages load on demand, so `/` downloads only the frame and the landing page.
const AuthPage = lazy(() => import('./routes/AuthPage'));
const ChatPage = lazy(() => import('./routes/ChatPage'));
const DeveloperPage = lazy(() => import('./routes/DeveloperPage'));
const SettingsPage = lazy(() => import('./routes/SettingsPage'));
const ThemeSettingsPage = lazy(() => import('./routes/ThemeSettingsPage'));
const NotFoundPage = lazy(() => import('./routes/NotFoundPage'));

/** Public pages the marketing remote will fill; until then its ComingSoonPage says so. */
const comingSoonPages: ReadonlyArray<[path: string, title: string]> = [
  ['pricing', 'Pricing'],
  ['features', 'Features'],
  ['about', 'About'],
  ['privacy', 'Privacy Policy'],
  ['terms', 'Terms of Service'],
  ['billing/success', 'Payment Successful'],
  ['integrations', 'Integrations'],
  ['blog', 'Blog'],
  ['careers', 'Careers'],
  ['press', 'Press'],
  ['help', 'Help Center'],
  ['community', 'Community'],
  ['contact', 'Contact'],
  ['status', 'Service Status'],
  ['cookies', 'Cookie Policy'],
  ['gdpr', 'GDPR'],
];

function Titled({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <DocumentTitle title={title} />
      {children}
    </>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route
          index
          element={
            <Titled title="Kasa">
              <RemotePage id="marketing/LandingPage" label="the home page" />
            </Titled>
          }
        />
        <Route
          path="welcome"
          element={
            <Titled title="Welcome">
              <RemotePage id="marketing/WelcomePage" label="the welcome page" />
            </Titled>
          }
        />
        {comingSoonPages.map(([path, title]) => (
          <Route
            key={path}
            path={path}
            element={
              <Titled title={title}>
                <RemotePage id="marketing/ComingSoonPage" label={`the ${title} page`} props={{ title }} />
              </Titled>
            }
          />
        ))}
        <Route path="auth" element={<AuthPage />} />
        <Route path="chat" element={<ChatPage />} />
        <Route path="developer" element={<DeveloperPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="theme-settings" element={<ThemeSettingsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** Providers, in the order the pages rely on them, then the routes. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <GlobalStyles />
        <BrowserRouter>
          <AuthSession />
          <ThemeSync />
          <TourProvider>
            <AppRoutes />
          </TourProvider>
          <Toaster />
        </BrowserRouter>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
