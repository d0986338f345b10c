import type { ReactNode } from 'react';
import { useT, type MessageId } from '../i18n/useT';
import { DocumentTitle } from './useDocumentTitle';

/** A page with its tab title, in the interface language. */
export function Titled({ titleId, children }: { titleId: MessageId; children: ReactNode }) {
  const t = useT();
  return (
    <>
      <DocumentTitle title={t(titleId)} />
      {children}
    </>
  );
}
