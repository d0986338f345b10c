import { RemoteCatalogue } from '@kasa/i18n';
import { Route, Routes } from 'react-router-dom';
import { MARKETING_ENGLISH, MARKETING_LOADERS } from './i18n/catalogues';
import { useT } from './i18n/useT';
import type { PageToast } from './notify';
import AboutPage from './routes/AboutPage';
import BillingSuccessPage from './routes/BillingSuccessPage';
import ComingSoonPage from './routes/ComingSoonPage';
import ContactPage from './routes/ContactPage';
import FeaturesPage from './routes/FeaturesPage';
import HelpPage from './routes/HelpPage';
import LandingPage from './routes/LandingPage';
import CookiesPage from './routes/legal/CookiesPage';
import GdprPage from './routes/legal/GdprPage';
import PrivacyPage from './routes/legal/PrivacyPage';
import TermsPage from './routes/legal/TermsPage';
import PricingPage from './routes/PricingPage';
import StatusPage from './routes/StatusPage';
import WelcomePage from './routes/WelcomePage';

/** Running alone there is no shell to show toasts: they go to the console. */
const notify = (toast: PageToast) => {
  console.info(`[toast] ${toast.title}: ${toast.description ?? ''}`);
  return undefined;
};

function StandaloneRoutes() {
  const t = useT();
  const standaloneTours = [{ id: 'welcome', name: t('standalone.tourName'), description: t('standalone.tourText') }];
  return (
    <main id="main">
      <Routes>
        <Route index element={<LandingPage />} />
        <Route path="welcome" element={<WelcomePage />} />
        <Route path="pricing" element={<PricingPage notify={notify} />} />
        <Route path="billing/success" element={<BillingSuccessPage />} />
        <Route path="features" element={<FeaturesPage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="cookies" element={<CookiesPage />} />
        <Route path="gdpr" element={<GdprPage />} />
        <Route path="status" element={<StatusPage />} />
        <Route path="help" element={<HelpPage tours={standaloneTours} onStartTour={() => undefined} />} />
        <Route path="contact" element={<ContactPage notify={notify} />} />
        <Route path="*" element={<ComingSoonPage title={t('standalone.comingSoon')} />} />
      </Routes>
    </main>
  );
}

/** The marketing area's routes when running alone; the shell mounts the exposed pages on its own routes. */
export function App() {
  return (
    <RemoteCatalogue english={MARKETING_ENGLISH} loaders={MARKETING_LOADERS}>
      <StandaloneRoutes />
    </RemoteCatalogue>
  );
}
