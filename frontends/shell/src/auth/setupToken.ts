/** Where the first-run setup link's secret waits while its opener signs up or signs in (this tab only). */
const SETUP_TOKEN_KEY = 'kasa.setupToken';

/** The setup link's secret kept for this tab, if any (the sign-in page sends a person who just signed in back). */
export function pendingSetupToken(): string | null {
  try {
    return sessionStorage.getItem(SETUP_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Keeps the secret for this tab, or forgets it (null). */
export function keepSetupToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(SETUP_TOKEN_KEY, token);
    else sessionStorage.removeItem(SETUP_TOKEN_KEY);
  } catch {
    /* storage is off: the person opens the link again after signing in */
  }
}
