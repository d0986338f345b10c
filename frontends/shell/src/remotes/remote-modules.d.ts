// Types of the modules the remotes expose (`dts: false`: declared here, not generated). Checked on every test run
// and type-check: remoteModules.test.ts fails when a module here (or in manifest.ts's RemoteModules) is not one that
// frontends/federation/exposes.js lists, or one is missing; each remote's src/remoteContract.check.ts fails the
// type-check when its component does not take the props declared here. Default exports are React components; the
// shell loads them with the federation runtime (see manifest.ts).

declare module 'marketing/LandingPage' {
  import type { ComponentType } from 'react';
  /** Route `/`: hero and calls to action; reads auth state from the shared @kasa/api-client. */
  const LandingPage: ComponentType;
  export default LandingPage;
}

declare module 'marketing/WelcomePage' {
  import type { ComponentType } from 'react';
  /** Route `/welcome`: short hero with the call to action to /auth. */
  const WelcomePage: ComponentType;
  export default WelcomePage;
}

declare module 'marketing/ComingSoonPage' {
  import type { ComponentType } from 'react';
  export interface ComingSoonPageProps {
    title: string;
  }
  /** Placeholder for public pages not written yet, with a back-to-home link. */
  const ComingSoonPage: ComponentType<ComingSoonPageProps>;
  export default ComingSoonPage;
}

declare module 'marketing/PricingPage' {
  import type { ComponentType } from 'react';
  /** The shell's `toast`, for the pages that show toasts; what it answers closes the toast. */
  export interface NotifyProps {
    notify: (toast: {
      title: string;
      description?: string;
      variant?: 'default' | 'success' | 'destructive';
    }) => { dismiss: () => void } | undefined;
  }
  /** Route `/pricing`: plans from GET /api/billing/plans, current tier, the upgrade flow, add-ons and FAQ. */
  const PricingPage: ComponentType<NotifyProps>;
  export default PricingPage;
}

declare module 'marketing/BillingSuccessPage' {
  import type { ComponentType } from 'react';
  /**
   * Route `/billing/success`: verifies the payment of `?reference=` with the server (checking, paid with the plan, not
   * confirmed yet, failed, unknown), stores the fresh token once paid, and shows the Transaction Reference.
   */
  const BillingSuccessPage: ComponentType;
  export default BillingSuccessPage;
}

declare module 'marketing/FeaturesPage' {
  import type { ComponentType } from 'react';
  const FeaturesPage: ComponentType;
  export default FeaturesPage;
}

declare module 'marketing/AboutPage' {
  import type { ComponentType } from 'react';
  const AboutPage: ComponentType;
  export default AboutPage;
}

declare module 'marketing/PrivacyPage' {
  import type { ComponentType } from 'react';
  const PrivacyPage: ComponentType;
  export default PrivacyPage;
}

declare module 'marketing/TermsPage' {
  import type { ComponentType } from 'react';
  const TermsPage: ComponentType;
  export default TermsPage;
}

declare module 'marketing/CookiesPage' {
  import type { ComponentType } from 'react';
  const CookiesPage: ComponentType;
  export default CookiesPage;
}

declare module 'marketing/GdprPage' {
  import type { ComponentType } from 'react';
  const GdprPage: ComponentType;
  export default GdprPage;
}

declare module 'marketing/StatusPage' {
  import type { ComponentType } from 'react';
  /** Route `/status`: live service status from GET /api/status, refreshed every 30 s. */
  const StatusPage: ComponentType;
  export default StatusPage;
}

declare module 'marketing/HelpPage' {
  import type { ComponentType } from 'react';
  export interface HelpPageProps {
    tours: ReadonlyArray<{ id: string; name: string; description: string }>;
    onStartTour: (id: string) => void;
  }
  /** Route `/help`: the guided tours (with a start button each) and the developer docs. */
  const HelpPage: ComponentType<HelpPageProps>;
  export default HelpPage;
}

declare module 'marketing/ContactPage' {
  import type { ComponentType } from 'react';
  /** The shell's `toast`, for the pages that show toasts; what it answers closes the toast. */
  export interface NotifyProps {
    notify: (toast: {
      title: string;
      description?: string;
      variant?: 'default' | 'success' | 'destructive';
    }) => { dismiss: () => void } | undefined;
  }
  /** Route `/contact`: the contact form (POST /api/contact) and the mailboxes. */
  const ContactPage: ComponentType<NotifyProps>;
  export default ContactPage;
}

declare module 'chat/ChatApp' {
  import type { ComponentType } from 'react';
  /**
   * Route `/chat/*` (signed in): the chat workspace, on routes of its own under wherever it is mounted (a new
   * conversation at the base, one at `<base>/<sessionId>`). Reads the user from the shared @kasa/api-client; uses
   * the shell's router and query client.
   */
  const ChatApp: ComponentType;
  export default ChatApp;
}

declare module 'chat/SharedConversation' {
  import type { ComponentType } from 'react';
  /** Route `/share/:token` (no account needed): a conversation its owner shared, read-only. */
  const SharedConversation: ComponentType;
  export default SharedConversation;
}

declare module 'developer/DeveloperApp' {
  import type { ComponentType } from 'react';
  /** The shell's `toast`, for the portal's confirmations (a test event sent, a delivery replayed). */
  export interface NotifyProps {
    notify: (toast: {
      title: string;
      description?: string;
      variant?: 'default' | 'success' | 'destructive';
    }) => { dismiss: () => void } | undefined;
  }
  /**
   * Route `/developer` (signed in): the developer portal. Keeps the open tab in the `?tab=` query parameter and
   * reads the user from the shared @kasa/api-client; uses the shell's router and query client.
   */
  const DeveloperApp: ComponentType<NotifyProps>;
  export default DeveloperApp;
}

declare module 'admin/AdminApp' {
  import type { ComponentType } from 'react';
  /**
   * Routes `/admin/*` (operators only; the shell checks first): the operator console. Its sections live under the
   * route's base path (`people/<id>`, `sales`, `operators`, `audit`); it reads the user from the shared
   * @kasa/api-client and uses the shell's router and query client.
   */
  const AdminApp: ComponentType;
  export default AdminApp;
}
