import { lazy, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AuthSession } from './auth/AuthSession';
import { Layout } from './layout/Layout';
import { Titled } from './layout/Titled';
import { marketingRoutes } from './remotes/marketingRoutes';
import { RemotePage } from './remotes/RemotePage';
import { LanguageProvider } from './i18n/LanguageProvider';
import { PagesCatalogue } from './i18n/PagesCatalogue';
import { GlobalStyles } from './theme/GlobalStyles';
import { ThemeProvider } from './theme/ThemeProvider';
import { ThemeSync } from './theme/ThemeSync';
import { LazyToaster } from './toast/LazyToaster';
import { TourProvider } from './tours/TourProvider';

// Shell pages load on demand, so `/` downloads only the frame and the landing page.
const AuthPage = lazy(() => import('./routes/AuthPage'));
const ChatPage = lazy(() => import('./routes/ChatPage'));
const DeveloperPage = lazy(() => import('./routes/DeveloperPage'));
const AdminPage = lazy(() => import('./routes/AdminPage'));
const SettingsPage = lazy(() => import('./routes/SettingsPage'));
const ThemeSettingsPage = lazy(() => import('./routes/ThemeSettingsPage'));
const NotFoundPage = lazy(() => import('./routes/NotFoundPage'));
const SetupPage = lazy(() => import('./routes/SetupPage'));
const SsoCallbackPage = lazy(() => import('./routes/SsoCallbackPage'));

/** A shell page, with its messages (loaded with it). */
function Page({ element }: { element: ReactNode }) {
  return <PagesCatalogue>{element}</PagesCatalogue>;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route
          index
          element={
            <Titled titleId="app.home">
              <RemotePage id="marketing/LandingPage" name="the home page" />
            </Titled>
          }
        />
        <Route
          path="welcome"
          element={
            <Titled titleId="app.welcome">
              <RemotePage id="marketing/WelcomePage" name="the welcome page" />
            </Titled>
          }
        />
        {marketingRoutes()}
        <Route path="auth" element={<Page element={<AuthPage />} />} />
        <Route path="auth/sso/callback" element={<Page element={<SsoCallbackPage />} />} />
        <Route path="chat/*" element={<ChatPage />} />
        <Route path="share/:token" element={<RemotePage id="chat/SharedConversation" name="a shared conversation" />} />
        <Route path="developer" element={<DeveloperPage />} />
        <Route path="admin/*" element={<AdminPage />} />
        <Route path="settings" element={<Page element={<SettingsPage />} />} />
        <Route path="theme-settings" element={<Page element={<ThemeSettingsPage />} />} />
        <Route path="setup" element={<Page element={<SetupPage />} />} />
        <Route path="*" element={<Page element={<NotFoundPage />} />} />
      </Route>
    </Routes>
  );
}

/** Providers, in the order the pages rely on them (the language first: every page's text needs it), then the routes. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <LanguageProvider>
        <ThemeProvider>
          <GlobalStyles />
          <BrowserRouter>
            <AuthSession />
            <ThemeSync />
            <TourProvider>
              <AppRoutes />
            </TourProvider>
            <LazyToaster />
          </BrowserRouter>
        </ThemeProvider>
      </LanguageProvider>
    </QueryClientProvider>
  );
}
