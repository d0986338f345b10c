/** A toast the shell shows for a page (one at a time; see the shell's toast store). */
export interface PageToast {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

/** A shown toast: the shell's `toast` answers one, so that a page can close a toast that no longer holds. */
export interface ShownToast {
  dismiss: () => void;
}

/** Props of the pages that show toasts: the shell passes its `toast` function. */
export interface NotifyProps {
  notify: (toast: PageToast) => ShownToast | undefined;
}
