import type { KasaError, VideoJob } from '@kasa/sdk';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useKasa } from '../KasaProvider.js';
import { kasaKeys } from '../queryKeys.js';
import type { KasaQueryOptions } from './queries.js';

export type VideoFileStatus = 'idle' | 'pending' | 'success' | 'error';

export interface VideoFile {
  /**
   * `idle` while there is nothing to download (no job, or one that has not succeeded: nothing is fetched), `pending`
   * while the MP4 downloads, then `success` or `error`.
   */
  status: VideoFileStatus;
  /** The MP4 (`video/mp4`), once downloaded. */
  blob: Blob | undefined;
  /**
   * An object URL of `blob` for `<video src>`, from the render after the download; revoked when the job changes and
   * on unmount. Undefined where the platform cannot make object URLs (use `blob` there).
   */
  url: string | undefined;
  /** Why the download failed: a KasaError (a 404 once the video is past its time to live). */
  error: KasaError | null;
  /** Downloads again (after an error, say); does nothing while `idle`. */
  refetch: () => void;
}

/** An object URL and the Blob it was made from, so that a URL is never given out for another Blob. */
interface ObjectUrl {
  blob: Blob;
  url: string;
}

/**
 * The MP4 of a video job, for a `<video>` element: downloaded (without the client's credential, as the SDK's
 * `video.download` does) only once `job` has succeeded, and given as a Blob and an object URL that is revoked when
 * the job changes or the component unmounts. Pass the job from `useVideoJob`: the download starts when polling sees
 * it succeed. The Blob stays in the query cache like any query's data (`gcTime`); a finished video does not change,
 * so it is never stale.
 *
 * The page can also play `job.videoUrl` directly (on the API's origin); this hook is for a player on another origin,
 * or a page that wants the bytes.
 */
export function useVideoFile(job: VideoJob | undefined, options: KasaQueryOptions<Blob> = {}): VideoFile {
  const kasa = useKasa();
  const ready = job !== undefined && job.status === 'succeeded' && Boolean(job.videoUrl);
  const query = useQuery({
    staleTime: Infinity,
    ...options,
    queryKey: kasaKeys.videoFile(job?.id ?? '', job?.videoUrl ?? ''),
    queryFn: ({ signal }) => kasa.video.download(job!, { signal }),
    enabled: ready && (options.enabled ?? true),
  });

  const blob = ready ? query.data : undefined;
  const [objectUrl, setObjectUrl] = useState<ObjectUrl>();
  // Made in an effect, not during render, so that each URL made is revoked exactly once (StrictMode included).
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') {
      setObjectUrl(undefined);
      return undefined;
    }
    const made = { blob, url: URL.createObjectURL(blob) };
    setObjectUrl(made);
    return () => URL.revokeObjectURL(made.url);
  }, [blob]);

  return {
    status: ready ? query.status : 'idle',
    blob,
    url: blob && objectUrl?.blob === blob ? objectUrl.url : undefined,
    error: ready ? query.error : null,
    refetch: () => {
      if (ready) void query.refetch();
    },
  };
}
