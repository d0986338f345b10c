import { Suspense, lazy, useState } from 'react';
import { useToasts } from './toastStore';

const Toaster = lazy(() => import('./Toaster').then((module) => ({ default: module.Toaster })));

/**
 * The toasts' viewport, loaded with the first toast: Radix's toast primitives are about 15 KB on the wire that most
 * visits never need, and every page's first load counts against its budget. Once loaded it stays mounted.
 */
export function LazyToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
