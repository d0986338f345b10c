import { lazy, Suspense, useState } from 'react';
import { Button, ICON, Share2 } from '@kasa/ui';
import { useT } from '../i18n/useT';

// The dialog and its messages load when someone opens it: sharing is not on the chat's first load.
const ShareDialog = lazy(() => import('./ShareDialog'));

/** The conversation header's Share button and, once pressed, the sharing dialog. */
export function ShareButton({ sessionId }: { sessionId: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="ghost" compact onClick={() => setOpen(true)} data-testid="share-button">
        <Share2 {...ICON} />
        {t('conversation.share')}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <ShareDialog sessionId={sessionId} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
