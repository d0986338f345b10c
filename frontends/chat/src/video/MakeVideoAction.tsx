import { SectionCatalogue } from '@kasa/i18n';
import { lazy, Suspense, useState } from 'react';
import { VIDEO_LOADERS } from '../i18n/video/catalogues';
import { useVideoT } from '../i18n/video/useVideoT';
import { Button, ICON, Play } from '@kasa/ui';

const VideosPanel = lazy(() => import(/* webpackChunkName: "videos" */ './VideosPanel'));

function Label() {
  const t = useVideoT();
  return <>{t('action.makeVideo')}</>;
}

/**
 * "Make a video" from a reply: opens the Videos panel with the reply's text as the prompt (the person can edit it
 * before starting). For the actions under a finished reply, on plans with video generation (Enterprise). Its label
 * comes with the panel's messages, so it shows once they have loaded.
 */
export function MakeVideoAction({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <SectionCatalogue loaders={VIDEO_LOADERS}>
        <Button type="button" variant="ghost" compact onClick={() => setOpen(true)} data-testid="make-video">
          <Play {...ICON} />
          <Label />
        </Button>
      </SectionCatalogue>
      {open ? (
        <Suspense fallback={null}>
          <VideosPanel onClose={() => setOpen(false)} initialPrompt={text.slice(0, 2_000)} />
        </Suspense>
      ) : null}
    </>
  );
}
