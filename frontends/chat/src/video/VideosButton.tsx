import { useMessages } from '@kasa/i18n';
import { lazy, Suspense, useState } from 'react';
import labels from '../i18n/video/entry.json';
import { Button, ICON, Play } from '@kasa/ui';

// The panel, its messages and its player load when someone opens it: videos are not on the chat's first load.
const VideosPanel = lazy(() => import(/* webpackChunkName: "videos" */ './VideosPanel'));

/**
 * The sidebar's Videos button and, once pressed, the Videos panel. Its one word comes from entry.json (each
 * locale's `videos.title`, checked by entryLabel.test.ts): the button is on the chat's first load, and the panel's
 * whole catalogue would cost that load a chunk of its own.
 */
export function VideosButton() {
  const { locale } = useMessages();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setOpen(true)} data-testid="videos-button">
        <Play {...ICON} />
        {labels[locale as keyof typeof labels] ?? labels.en}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <VideosPanel onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
