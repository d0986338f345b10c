/** A toast the shell shows for a page (one at a time; see the shell's toast store). */
export interface PageToast {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

/** Props of the pages that show toasts: the shell passes its `toast` function. */
export interface NotifyProps {
  notify: (toast: PageToast) => void;
}
