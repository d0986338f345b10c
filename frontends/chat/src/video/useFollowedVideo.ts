import { describeFailure, isApiError } from '@kasa/api-client';
import type { VideoJob, VideoJobEvent } from '@kasa/contracts';
import { useEffect, useRef, useState } from 'react';
import { followVideo, isFinished } from './videoApi';

/** Wait before opening a job's event stream again after it broke off (the server restarted, the network blinked). */
const RECONNECT_MS = 3_000;

export interface FollowedVideo {
  /** The job as last heard: from the stream once it spoke, else as listed. */
  job: VideoJob | VideoJobEvent;
  /** The stream broke off and is being opened again. */
  reconnecting: boolean;
  /** The stream cannot be followed (e.g. the job is gone); the listed state stays shown. */
  failure: string | undefined;
}

/**
 * Follows an unfinished job through its event stream until it succeeds or fails, reconnecting when the stream
 * breaks off; `onFinished` gets the finished job once.
 */
export function useFollowedVideo(listed: VideoJob, onFinished: (job: VideoJob) => void): FollowedVideo {
  const [live, setLive] = useState<VideoJobEvent | undefined>();
  const [reconnecting, setReconnecting] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const follow = !isFinished(listed);

  useEffect(() => {
    if (!follow) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const open = async () => {
      try {
        await followVideo(
          listed.id,
          (event) => {
            if (event.type === 'error') {
              done = true;
              setFailure(event.message || undefined);
              return;
            }
            setReconnecting(false);
            setLive(event.job);
            if (isFinished(event.job) && !done) {
              done = true;
              finished.current(event.job);
            }
          },
          abort.signal,
        );
      } catch (error) {
        if (abort.signal.aborted) return;
        // Not found: the job is gone; nothing to reconnect to.
        if (isApiError(error) && error.status === 404) {
          setFailure(describeFailure(error, { withStatus: false }));
          return;
        }
      }
      if (abort.signal.aborted || done) return;
      setReconnecting(true);
      timer = setTimeout(() => void open(), RECONNECT_MS);
    };
    void open();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [follow, listed.id]);

  return { job: live ?? listed, reconnecting, failure };
}
