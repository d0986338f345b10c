import type { ReactElement } from 'react';
import { Route, useNavigate } from 'react-router-dom';
import { DocumentTitle } from '../layout/useDocumentTitle';
import { toast } from '../toast/toastStore';
import { useTours } from '../tours/TourProvider';
import { tourById, type TourId } from '../tours/tours';
import { RemotePage } from './RemotePage';
import { useT, type MessageId } from '../i18n/useT';

/** Public pages whose content is not written yet: the marketing remote's ComingSoonPage, with a way home. */
const comingSoonPages: ReadonlyArray<[path: string, title: string]> = [
  ['integrations', 'Integrations'],
  ['blog', 'Blog'],
  ['careers', 'Careers'],
  ['press', 'Press'],
  ['community', 'Community'],
];

/** /help: the marketing remote's Help Center, given the shell's guided tours and a way to start them. */
function HelpRoute() {
  const { tours, startTour } = useTours();
  const navigate = useNavigate();
  const t = useT();
  const onStartTour = (id: string) => {
    const tour = tourById(id);
    if (!tour) return;
    if (tour.targetRoute !== window.location.pathname) navigate(tour.targetRoute);
    startTour(tour.id as TourId);
  };
  return (
    <RemotePage
      id="marketing/HelpPage"
      name="the Help Center"
      props={{
        tours: tours.map(({ id }) => ({
          id,
          name: t(`tours.${id}.name` as MessageId),
          description: t(`tours.${id}.description` as MessageId),
        })),
        onStartTour,
      }}
    />
  );
}

/**
 * The routes of the marketing remote's public pages (besides / and /welcome), each a module of its own that loads
 * when its route is visited. Pages that show toasts get the shell's `toast` as `notify`.
 */
export function marketingRoutes() {
  const page = (path: string, title: string, element: ReactElement) => (
    <Route
      key={path}
      path={path}
      element={
        <>
          <DocumentTitle title={title} />
          {element}
        </>
      }
    />
  );
  return [
    page(
      'pricing',
      'Pricing',
      <RemotePage id="marketing/PricingPage" name="the pricing page" props={{ notify: toast }} />,
    ),
    page(
      'billing/success',
      'Payment Successful',
      <RemotePage id="marketing/BillingSuccessPage" name="the payment page" />,
    ),
    page('features', 'Features', <RemotePage id="marketing/FeaturesPage" name="the features page" />),
    page('about', 'About', <RemotePage id="marketing/AboutPage" name="the about page" />),
    page('privacy', 'Privacy Policy', <RemotePage id="marketing/PrivacyPage" name="the privacy policy" />),
    page('terms', 'Terms of Service', <RemotePage id="marketing/TermsPage" name="the terms of service" />),
    page('cookies', 'Cookie Policy', <RemotePage id="marketing/CookiesPage" name="the cookie policy" />),
    page('gdpr', 'GDPR', <RemotePage id="marketing/GdprPage" name="the GDPR page" />),
    page('status', 'Service Status', <RemotePage id="marketing/StatusPage" name="the status page" />),
    page('help', 'Help Center', <HelpRoute />),
    page(
      'contact',
      'Contact',
      <RemotePage id="marketing/ContactPage" name="the contact page" props={{ notify: toast }} />,
    ),
    ...comingSoonPages.map(([path, title]) =>
      page(path, title, <RemotePage id="marketing/ComingSoonPage" name={`the ${title} page`} props={{ title }} />),
    ),
  ];
}
