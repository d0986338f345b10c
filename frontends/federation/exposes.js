/**
 * What each remote exposes to the shell: exposed name → source file (relative to the remote's folder). The one list
 * of the shell–remote contract: each remote's webpack config takes its `exposes` from here, and
 * frontends/shell/src/remotes/remoteModules.test.ts fails when the shell's declarations (remote-modules.d.ts) or its
 * `RemoteModules` name a module that is not here, or leave one out. The props each declaration promises are checked
 * against the component by each remote's typecheck (src/remoteContract.check.ts).
 */
const REMOTE_EXPOSES = {
  marketing: {
    './LandingPage': './src/routes/LandingPage.tsx',
    './WelcomePage': './src/routes/WelcomePage.tsx',
    './ComingSoonPage': './src/routes/ComingSoonPage.tsx',
    './PricingPage': './src/routes/PricingPage.tsx',
    './BillingSuccessPage': './src/routes/BillingSuccessPage.tsx',
    './FeaturesPage': './src/routes/FeaturesPage.tsx',
    './AboutPage': './src/routes/AboutPage.tsx',
    './PrivacyPage': './src/routes/legal/PrivacyPage.tsx',
    './TermsPage': './src/routes/legal/TermsPage.tsx',
    './CookiesPage': './src/routes/legal/CookiesPage.tsx',
    './GdprPage': './src/routes/legal/GdprPage.tsx',
    './StatusPage': './src/routes/StatusPage.tsx',
    './HelpPage': './src/routes/HelpPage.tsx',
    './ContactPage': './src/routes/ContactPage.tsx',
  },
  chat: {
    './ChatApp': './src/ChatApp.tsx',
    // Route /share/:token: a conversation someone shared, for anyone with the link.
    './SharedConversation': './src/share/SharedConversationPage.tsx',
  },
  developer: {
    './DeveloperApp': './src/DeveloperApp.tsx',
  },
  admin: {
    './AdminApp': './src/AdminApp.tsx',
  },
};

/** The `exposes` option of remote `name`'s ModuleFederationPlugin. */
function exposesOf(name) {
  const exposes = REMOTE_EXPOSES[name];
  if (!exposes) throw new Error(`No remote named ${name} in frontends/federation/exposes.js`);
  return exposes;
}

module.exports = { REMOTE_EXPOSES, exposesOf };
