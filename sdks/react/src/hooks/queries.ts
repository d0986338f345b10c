import {
  isKasaError,
  type KasaError,
  type LanguageCapability,
  type LanguageList,
  type MessagePage,
  type PageQuery,
  type Persona,
  type SessionPage,
  type VideoJob,
  type VideoJobListQuery,
} from '@kasa/sdk';
import {
  useQuery,
  useQueryClient,
  type Query,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useKasa } from '../KasaProvider.js';
import { kasaKeys } from '../queryKeys.js';

/** react-query options the hooks pass through (everything but the key and the fetcher, which they own). */
export type KasaQueryOptions<T> = Omit<UseQueryOptions<T, KasaError>, 'queryKey' | 'queryFn'>;

/** The personas: Kasa's six, then the signed-in person's own. */
export function usePersonas(options: KasaQueryOptions<Persona[]> = {}): UseQueryResult<Persona[], KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.personas(),
    queryFn: ({ signal }) => kasa.personas.list({ signal }),
  });
}

/** One page of my chat sessions, newest first. */
export function useSessions(
  query: PageQuery = {},
  options: KasaQueryOptions<SessionPage> = {},
): UseQueryResult<SessionPage, KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.sessions(query),
    queryFn: ({ signal }) => kasa.chat.sessions.list(query, { signal }),
  });
}

/** One page of a session's messages (the newest page first); waits while `sessionId` is undefined. */
export function useMessages(
  sessionId: string | undefined,
  query: PageQuery = {},
  options: KasaQueryOptions<MessagePage> = {},
): UseQueryResult<MessagePage, KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.messages(sessionId ?? '', query),
    queryFn: ({ signal }) => kasa.chat.messages.list(sessionId!, query, { signal }),
    enabled: sessionId !== undefined && (options.enabled ?? true),
  });
}

/** The language catalogue, optionally only the languages with one capability. */
export function useLanguages(
  query: { capability?: LanguageCapability } = {},
  options: KasaQueryOptions<LanguageList> = {},
): UseQueryResult<LanguageList, KasaError> {
  const kasa = useKasa();
  return useQuery({
    ...options,
    queryKey: kasaKeys.languages(query),
    queryFn: ({ signal }) => kasa.languages.list(query, { signal }),
  });
}

/** How often the video hooks read unfinished jobs by default, in ms: the interval of the SDK's `video.wait`. */
export const DEFAULT_VIDEO_POLL_MS = 2_000;

/** Options of the video job hooks: react-query's, plus how to poll while a job is being made. */
export type VideoQueryOptions<T> = KasaQueryOptions<T> & {
  /**
   * Read again while a job is `queued` or `running`: `true` (the default) every 2 s, a number of ms, or `false` not
   * to poll (react-query's own `refetchInterval` then applies). Polling stops once every job has succeeded or failed,
   * and after a refusal (a 4xx other than 429: the job is gone, or the credential is no longer accepted).
   */
  pollWhileRunning?: boolean | number;
};

/** Whether a job has ended, either way. */
function finished(job: VideoJob): boolean {
  return job.status === 'succeeded' || job.status === 'failed';
}

/** Whether reading again cannot help: the API refused the read (a 429 is a wait, not a refusal). */
function refused(error: unknown): boolean {
  return isKasaError(error) && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/** A `refetchInterval` computed from the query: react-query asks again after each read. */
type RefetchInterval<T> = (query: Query<T, KasaError, T, QueryKey>) => number | false;

/**
 * react-query's `refetchInterval` for data holding video jobs: `every` ms while one of them is unfinished, else no
 * polling, so that polling stops on the read that sees the end.
 */
function pollWhileUnfinished<T>(jobsOf: (data: T) => VideoJob[], every: number): RefetchInterval<T> {
  return (query) => {
    const { data, error } = query.state;
    if (data === undefined || refused(error)) return false;
    return jobsOf(data).some((job) => !finished(job)) ? every : false;
  };
}

/** The `refetchInterval` that `pollWhileRunning` asks for, or undefined to leave the caller's own. */
function pollingOption<T>(
  pollWhileRunning: boolean | number,
  jobsOf: (data: T) => VideoJob[],
): { refetchInterval?: RefetchInterval<T> } {
  if (pollWhileRunning === false) return {};
  const every = pollWhileRunning === true ? DEFAULT_VIDEO_POLL_MS : pollWhileRunning;
  return { refetchInterval: pollWhileUnfinished(jobsOf, every) };
}

/**
 * My video jobs, newest first (`limit` 1 to 50, default 20; `status` filters). Enterprise plan; other plans get a
 * 403 KasaError. Read again every 2 s while one of the listed jobs is unfinished (see `pollWhileRunning`).
 */
export function useVideoJobs(
  query: VideoJobListQuery = {},
  options: VideoQueryOptions<VideoJob[]> = {},
): UseQueryResult<VideoJob[], KasaError> {
  const kasa = useKasa();
  const { pollWhileRunning = true, ...queryOptions } = options;
  return useQuery({
    ...queryOptions,
    ...pollingOption<VideoJob[]>(pollWhileRunning, (jobs) => jobs),
    queryKey: kasaKeys.videoJobs(query),
    queryFn: ({ signal }) => kasa.video.list(query, { signal }),
  });
}

/** Options of `useVideoJob`: those of the video hooks, plus whether the server pushes the job's changes. */
export type VideoJobQueryOptions = VideoQueryOptions<VideoJob> & {
  /**
   * Follow the job's event stream (`video.events`) while it is `queued` or `running`: `true` (the default), each
   * change arrives as the server sends it and nothing is polled. When the stream cannot open or breaks off (a proxy
   * that buffers it, the limit of open streams per person), the hook falls back to polling (`pollWhileRunning`) for
   * that job. `false`: polling only.
   */
  followEvents?: boolean;
};

/**
 * One of my video jobs, kept current while it is `queued` or `running` until it has `succeeded` (with `videoUrl` and
 * `duration`) or `failed` (with `error`): pushed by the job's event stream (see `followEvents`), else read again
 * every 2 s (see `pollWhileRunning`). `data.progress` (0 to 100) and `data.status` drive a progress bar. Waits while
 * `id` is undefined; someone else's job, or an unknown one, is a 404 KasaError.
 */
export function useVideoJob(
  id: string | undefined,
  options: VideoJobQueryOptions = {},
): UseQueryResult<VideoJob, KasaError> {
  const kasa = useKasa();
  const queryClient = useQueryClient();
  const { pollWhileRunning = true, followEvents = true, ...queryOptions } = options;
  const enabled = id !== undefined && (queryOptions.enabled ?? true);
  // The job whose stream failed: polling takes over for it (a new id tries its own stream).
  const [streamFailedFor, setStreamFailedFor] = useState<string | undefined>(undefined);
  const streaming = followEvents && enabled && streamFailedFor !== id;
  const result = useQuery({
    ...queryOptions,
    // While the stream pushes the changes there is nothing to poll (a caller's own interval with
    // `pollWhileRunning: false` still applies).
    ...(streaming
      ? pollWhileRunning === false
        ? {}
        : { refetchInterval: false as const }
      : pollingOption<VideoJob>(pollWhileRunning, (job) => [job])),
    queryKey: kasaKeys.videoJob(id ?? ''),
    queryFn: ({ signal }) => kasa.video.get(id!, { signal }),
    enabled,
  });
  // Opened once the first read shows the job unfinished (the read also gives a 404 its usual form), closed when it
  // has ended, when the id changes and on unmount.
  const unfinished = result.data !== undefined && !finished(result.data);
  useEffect(() => {
    if (!streaming || !unfinished || id === undefined) return;
    const controller = new AbortController();
    void (async () => {
      try {
        // No retries: a stream that cannot open now is better served by polling at once.
        for await (const event of kasa.video.events(id, { signal: controller.signal, maxRetries: 0 })) {
          const { queuePosition: _queuePosition, ...job } = event.job;
          queryClient.setQueryData<VideoJob>(kasaKeys.videoJob(id), job);
        }
      } catch {
        if (!controller.signal.aborted) setStreamFailedFor(id);
      }
    })();
    return () => controller.abort();
  }, [kasa, queryClient, id, streaming, unfinished]);
  return result;
}
