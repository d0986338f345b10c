import { init, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

/** Every module the shell loads from a remote, by federation id (`<remote>/<exposed name>`). */
export interface RemoteModules {
  'marketing/LandingPage': typeof import('marketing/LandingPage');
  'marketing/WelcomePage': typeof import('marketing/WelcomePage');
  'marketing/ComingSoonPage': typeof import('marketing/ComingSoonPage');
  'marketing/PricingPage': typeof import('marketing/PricingPage');
  'marketing/BillingSuccessPage': typeof import('marketing/BillingSuccessPage');
  'marketing/FeaturesPage': typeof import('marketing/FeaturesPage');
  'marketing/AboutPage': typeof import('marketing/AboutPage');
  'marketing/PrivacyPage': typeof import('marketing/PrivacyPage');
  'marketing/TermsPage': typeof import('marketing/TermsPage');
  'marketing/CookiesPage': typeof import('marketing/CookiesPage');
  'marketing/GdprPage': typeof import('marketing/GdprPage');
  'marketing/StatusPage': typeof import('marketing/StatusPage');
  'marketing/HelpPage': typeof import('marketing/HelpPage');
  'marketing/ContactPage': typeof import('marketing/ContactPage');
  'chat/ChatApp': typeof import('chat/ChatApp');
  'chat/SharedConversation': typeof import('chat/SharedConversation');
  'developer/DeveloperApp': typeof import('developer/DeveloperApp');
  'admin/AdminApp': typeof import('admin/AdminApp');
}
export type RemoteModuleId = keyof RemoteModules;

/** remotes.json: remote name → URL of its remoteEntry.js (absolute, or relative to remotes.json). */
export type RemotesManifest = Record<string, string>;

const MANIFEST_FILE = 'remotes.json';
let registration: Promise<void> | null = null;

function manifestUrl(): string {
  // The shell's own public path (detected by webpack from the script URL), so remotes.json sits beside index.html.
  return new URL(MANIFEST_FILE, new URL(__webpack_public_path__ || '/', window.location.href)).href;
}

/** Validates remotes.json and resolves each entry against the manifest's own URL. */
export function parseManifest(value: unknown, url: string): RemotesManifest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${url} must be a JSON object of remote name → remoteEntry.js URL`);
  }
  const manifest: RemotesManifest = {};
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'string' || entry === '')
      throw new Error(`${url}: the entry of remote "${name}" must be a URL`);
    manifest[name] = new URL(entry, url).href;
  }
  return manifest;
}

async function register(): Promise<void> {
  const url = manifestUrl();
  // no-cache: revalidate on every start, so a deploy that moves a remote is picked up at once.
  const response = await fetch(url, { cache: 'no-cache', credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Could not load ${MANIFEST_FILE}: HTTP ${response.status}`);
  const manifest = parseManifest(await response.json(), url);
  // Attaches to the federation instance the webpack plugin created for 'shell' (same name) and adds the remotes.
  init({ name: 'shell', remotes: [] });
  registerRemotes(
    Object.entries(manifest).map(([name, entry]) => ({ name, entry })),
    { force: true },
  );
}

/**
 * Fetches remotes.json once and registers its remotes with the federation runtime. A failure is not cached,
 * so the next call (e.g. the Retry button of a failed page) tries again.
 */
export function ensureRemotesRegistered(): Promise<void> {
  if (!registration) {
    const attempt = register();
    registration = attempt;
    attempt.catch(() => {
      if (registration === attempt) registration = null;
    });
  }
  return registration;
}

/** Loads one exposed module of a remote, typed by RemoteModules. Rejects when the remote cannot be loaded. */
export async function loadRemoteModule<Id extends RemoteModuleId>(id: Id): Promise<RemoteModules[Id]> {
  await ensureRemotesRegistered();
  const module = await loadRemote<RemoteModules[Id]>(id);
  if (!module) throw new Error(`The remote module ${id} is unavailable`);
  return module;
}

/**
 * Starts loading a remote module before React asks for it (the page's lazy component then finds it loaded).
 * Failures are ignored here: the page's own load reports them, with Retry.
 */
export function preloadRemoteModule(id: RemoteModuleId): void {
  loadRemoteModule(id).catch(() => undefined);
}
