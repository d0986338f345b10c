// Types of the modules the remotes expose, declared here instead of generated (`dts: false`). Keep them in step
// with each remote's webpack `exposes` and the components' props (frontends/marketing/src/routes/).
// Default exports are React components; the shell loads them with the federation runtime (see manifest.ts).

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
