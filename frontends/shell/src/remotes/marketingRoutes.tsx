import type { ReactElement } from 'react';
import { Route, useNavigate } from 'react-router-dom';
import { Titled } from '../layout/Titled';
import { toast } from '../toast/toastStore';
import { useTours } from '../tours/TourProvider';
import { tourById, type TourId } from '../tours/tours';
import { RemotePage } from './RemotePage';
import { useT, type MessageId } from '../i18n/useT';

/** Public pages whose content is not written yet: the marketing remote's ComingSoonPage, with a way home. */
const comingSoonPages: ReadonlyArray<[path: string, titleId: MessageId]> = [
  ['integrations', 'footer.integrations'],
  ['blog', 'footer.blog'],
  ['careers', 'footer.careers'],
  ['press', 'footer.press'],
  ['community', 'footer.community'],
];

/** A page not written yet, titled in the interface language. */
function ComingSoonRoute({ path, titleId }: { path: string; titleId: MessageId }) {
  const t = useT();
  return <RemotePage id="marketing/ComingSoonPage" name={`the ${path} page`} props={{ title: t(titleId) }} />;
}

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
  const page = (path: string, titleId: MessageId, element: ReactElement) => (
    <Route key={path} path={path} element={<Titled titleId={titleId}>{element}</Titled>} />
  );
  return [
    page(
      'pricing',
      'nav.pricing',
      <RemotePage id="marketing/PricingPage" name="the pricing page" props={{ notify: toast }} />,
    ),
    page('billing/success', 'app.payment', <RemotePage id="marketing/BillingSuccessPage" name="the payment page" />),
    page('features', 'footer.features', <RemotePage id="marketing/FeaturesPage" name="the features page" />),
    page('about', 'footer.about', <RemotePage id="marketing/AboutPage" name="the about page" />),
    page('privacy', 'footer.privacy', <RemotePage id="marketing/PrivacyPage" name="the privacy policy" />),
    page('terms', 'footer.terms', <RemotePage id="marketing/TermsPage" name="the terms of service" />),
    page('cookies', 'footer.cookies', <RemotePage id="marketing/CookiesPage" name="the cookie policy" />),
    page('gdpr', 'footer.gdpr', <RemotePage id="marketing/GdprPage" name="the GDPR page" />),
    page('status', 'footer.status', <RemotePage id="marketing/StatusPage" name="the status page" />),
    page('help', 'footer.help', <HelpRoute />),
    page(
      'contact',
      'footer.contact',
      <RemotePage id="marketing/ContactPage" name="the contact page" props={{ notify: toast }} />,
    ),
    ...comingSoonPages.map(([path, titleId]) => page(path, titleId, <ComingSoonRoute path={path} titleId={titleId} />)),
  ];
}
