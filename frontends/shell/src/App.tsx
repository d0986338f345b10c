import { lazy, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AuthSession } from './auth/AuthSession';
import { Layout } from './layout/Layout';
import { DocumentTitle } from './layout/useDocumentTitle';
import { marketingRoutes } from './remotes/marketingRoutes';
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
        {marketingRoutes()}
        <Route path="auth" element={<AuthPage />} />
        <Route path="chat/:sessionId?" element={<ChatPage />} />
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
