import { createContext, useContext } from 'react';

/** A toast the shell shows for the portal (one at a time; see the shell's toast store). */
export interface PortalToast {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

/** The shell's `toast`: what it answers closes the toast. */
export type Notify = (toast: PortalToast) => { dismiss: () => void } | undefined;

/** Without a shell (an older one, or the portal running alone) there is no toast: the panels still show the outcome. */
export const noToast: Notify = () => undefined;

export const NotifyContext = createContext<Notify>(noToast);

/** The shell's toast, for a panel that confirms an action that happened out of sight. */
export const useNotify = (): Notify => useContext(NotifyContext);
