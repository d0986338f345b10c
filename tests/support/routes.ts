/**
 * Every page of the web app (spec section 2 and the footer's pages), with what identifies it once rendered.
 * The accessibility suite and `npm run screenshots` walk this list, so a new page is added here once.
 */
export interface WebRoute {
  path: string;
  /** Text of the page's main heading, or any text that shows the page has rendered. */
  ready: string | RegExp;
  signedIn?: boolean;
}

export const WEB_ROUTES: readonly WebRoute[] = [
  { path: '/', ready: 'Your Voice. Your AI. Your World.' },
  { path: '/welcome', ready: /Kasa/ },
  { path: '/auth', ready: 'Sign In' },
  { path: '/pricing', ready: /Pricing|Plans/ },
  { path: '/features', ready: /Features/ },
  { path: '/about', ready: /About/ },
  { path: '/privacy', ready: /Privacy/ },
  { path: '/terms', ready: /Terms/ },
  { path: '/cookies', ready: /Cookie/ },
  { path: '/gdpr', ready: /GDPR|Data protection/i },
  { path: '/status', ready: /Status/ },
  { path: '/help', ready: /Help/ },
  { path: '/contact', ready: /Contact/ },
  { path: '/integrations', ready: /Integrations/ },
  { path: '/blog', ready: /Blog/ },
  { path: '/careers', ready: /Careers/ },
  { path: '/press', ready: /Press/ },
  { path: '/community', ready: /Community/ },
  { path: '/billing/success?reference=KASA-SAMPLE', ready: /KASA-SAMPLE/ },
  { path: '/theme-settings', ready: 'Theme Settings' },
  { path: '/no-such-page', ready: '404 Page Not Found' },
  { path: '/chat', ready: /New chat with|Kasa Chat/, signedIn: true },
  { path: '/developer', ready: /Developer/, signedIn: true },
  { path: '/settings', ready: 'Settings', signedIn: true },
];

export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const;
