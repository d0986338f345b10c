import { useEffect } from 'react';

/** Sets the tab title for the current page: 'Pricing · Kasa'. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title === 'Kasa' ? title : `${title} · Kasa`;
  }, [title]);
}

export function DocumentTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}
