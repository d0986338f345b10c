import { allows } from '@kasa/contracts/src/plans';
import styled from '@emotion/styled';
import { describeFailure, useAuth } from '@kasa/api-client';
import type { VideoJob } from '@kasa/contracts';
import { SectionCatalogue } from '@kasa/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { LANGUAGE_CHOICES } from '../conversation/languages';
import { VIDEO_LOADERS } from '../i18n/video/catalogues';
import { useVideoT } from '../i18n/video/useVideoT';
import { Button, ICON, InlineError, Muted, Play, Select, SkeletonBar } from '@kasa/ui';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import { featureOffered } from '@kasa/ui/serverOffers';
import { useServerState } from '../api/serverOffers';
import { useFollowedVideo } from './useFollowedVideo';
import { fetchCaptionsUrl, isFinished, listVideos, startVideo, videoKeys } from './videoApi';

/** The longest prompt the service takes (VideoGenerationRequest). */
const MAX_PROMPT = 2_000;

const Section = styled.section`
  margin-bottom: 1rem;
  h3 {
    margin: 0 0 0.5rem;
    font-size: 0.9375rem;
  }
`;

const Form = styled.form`
  display: grid;
  gap: 0.5rem;
  textarea {
    width: 100%;
    min-height: 5rem;
    padding: 0.5rem 0.625rem;
    border: 1px solid var(--kasa-muted);
    border-radius: var(--kasa-radius);
    background: var(--kasa-surface);
    color: var(--kasa-fg);
    font: inherit;
    resize: vertical;
  }
  label {
    font-weight: 600;
    font-size: 0.875rem;
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  button {
    min-height: 2.75rem;
  }
`;

const Bar = styled.div`
  height: 0.5rem;
  border-radius: 999px;
  background: var(--kasa-border);
  overflow: hidden;
  span {
    display: block;
    height: 100%;
    background: var(--kasa-primary);
    transition: width 300ms ease-out;
  }
  @media (prefers-reduced-motion: reduce) {
    span {
      transition: none;
    }
  }
`;

const Items = styled.ul`
  display: grid;
  gap: 0.5rem;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled.li`
  display: grid;
  gap: 0.375rem;
  padding: 0.625rem 0.75rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  p {
    margin: 0;
  }
  .prompt {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    color: var(--kasa-fg);
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 0.75rem;
    font-size: 0.8125rem;
    color: var(--kasa-muted);
  }
`;

const Player = styled.video`
  display: block;
  width: 100%;
  max-height: 50vh;
  border-radius: var(--kasa-radius);
  background: #000;
`;

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(document.documentElement.lang || 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/** The progress of an unfinished job, as the server pushes it: its place in the queue, then a bar. */
function JobProgress({ job: listed, onFinished }: { job: VideoJob; onFinished: (job: VideoJob) => void }) {
  const t = useVideoT();
  const { job, reconnecting } = useFollowedVideo(listed, onFinished);
  const labelId = useId();
  if (isFinished(job)) return null;
  const queued = job.status === 'queued';
  return (
    <div data-testid="video-progress" data-status={job.status} data-progress={job.progress}>
      <Muted id={labelId} role="status">
        {queued
          ? t('progress.queued', {
              ahead: 'queuePosition' in job && job.queuePosition !== undefined ? job.queuePosition : 0,
            })
          : t('progress.running', { percent: job.progress })}
      </Muted>
      <Bar
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={job.progress}
      >
        <span style={{ width: `${job.progress}%` }} />
      </Bar>
      {reconnecting ? <Muted>{t('progress.reconnecting')}</Muted> : null}
    </div>
  );
}

/** The finished video with its captions as a <track> (fetched with the token, given to the track as a blob). */
function VideoPlayer({ job }: { job: VideoJob }) {
  const t = useVideoT();
  const [captions, setCaptions] = useState<string | null | undefined>();
  const [unplayable, setUnplayable] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    let url: string | null = null;
    setCaptions(undefined);
    fetchCaptionsUrl(job.id, abort.signal)
      .then((made) => {
        url = made;
        if (abort.signal.aborted) {
          if (made) URL.revokeObjectURL(made);
          return;
        }
        setCaptions(made);
      })
      // Without captions the video still plays.
      .catch(() => !abort.signal.aborted && setCaptions(null));
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [job.id]);

  if (!job.videoUrl) return null;
  return (
    <Section aria-label={t('player.label', { prompt: job.prompt })}>
      {captions === undefined ? (
        <SkeletonBar height="12rem" />
      ) : (
        <Player
          controls
          playsInline
          preload="metadata"
          src={job.videoUrl}
          data-testid="video-player"
          onError={() => setUnplayable(true)}
        >
          {captions ? (
            <track kind="captions" src={captions} srcLang={job.language} label={job.language} default />
          ) : null}
        </Player>
      )}
      {unplayable ? (
        <InlineError role="alert">
          <p>{t('player.unplayable')}</p>
        </InlineError>
      ) : null}
    </Section>
  );
}

function StatusText({ job }: { job: VideoJob }) {
  const t = useVideoT();
  const text = {
    queued: t('status.queued'),
    running: t('status.running'),
    succeeded: t('status.succeeded'),
    failed: t('status.failed'),
  }[job.status];
  return <strong data-testid="video-status">{text}</strong>;
}

/** What Enterprise adds, with the way to the plans; when this server cannot make videos now, only that. */
function UpgradeNotice() {
  const t = useVideoT();
  const server = useServerState();
  const offered = featureOffered('video', server) !== 'none';
  return (
    <div data-testid="video-upgrade" data-offered={server.settled ? offered : 'pending'}>
      <p>
        <Play {...ICON} style={{ verticalAlign: '-0.2em', marginInlineEnd: '0.375rem' }} />
        {t(offered ? 'upgrade.text' : 'upgrade.notOnServer')}
      </p>
      {offered ? <Link to="/pricing">{t('upgrade.link')}</Link> : null}
    </div>
  );
}

function VideosBody({ initialPrompt }: { initialPrompt: string }) {
  const t = useVideoT();
  const queryClient = useQueryClient();
  const promptId = useId();
  const languageId = useId();
  const [prompt, setPrompt] = useState(initialPrompt);
  const [language, setLanguage] = useState('auto');
  const [playing, setPlaying] = useState<VideoJob | undefined>();
  /** The job started here: it plays by itself once it is ready. */
  const started = useRef<string | undefined>(undefined);

  const list = useQuery({ queryKey: videoKeys.list, queryFn: listVideos });
  const replace = (job: VideoJob) =>
    queryClient.setQueryData(videoKeys.list, (old: { jobs: VideoJob[] } | undefined) => ({
      jobs: [job, ...(old?.jobs ?? []).filter((j) => j.id !== job.id)].sort((a, b) =>
        b.createdAt.localeCompare(a.createdAt),
      ),
    }));
  const start = useMutation({
    mutationFn: () => startVideo({ prompt: prompt.trim(), language }),
    onSuccess: (job) => {
      started.current = job.id;
      setPrompt('');
      replace(job);
    },
  });
  const onFinished = (job: VideoJob) => {
    replace(job);
    if (job.status === 'succeeded' && started.current === job.id) setPlaying(job);
  };

  const jobs = list.data?.jobs ?? [];
  return (
    <>
      <Section>
        <h3>{t('new.heading')}</h3>
        <p>{t('new.explain')}</p>
        <Form
          onSubmit={(event) => {
            event.preventDefault();
            if (prompt.trim() && !start.isPending) start.mutate();
          }}
        >
          <label htmlFor={promptId}>{t('new.prompt')}</label>
          <textarea
            id={promptId}
            value={prompt}
            maxLength={MAX_PROMPT}
            placeholder={t('new.placeholder')}
            onChange={(event) => setPrompt(event.target.value)}
            data-testid="video-prompt"
          />
          <Row>
            <label htmlFor={languageId}>{t('new.language')}</label>
            <Select id={languageId} value={language} onChange={(event) => setLanguage(event.target.value)}>
              {LANGUAGE_CHOICES.map((choice) => (
                <option key={choice.tag} value={choice.tag}>
                  {choice.tag === 'auto' ? t('new.auto') : choice.label}
                </option>
              ))}
            </Select>
            <Button type="submit" disabled={!prompt.trim() || start.isPending} data-testid="video-start">
              <Play {...ICON} />
              {start.isPending ? t('new.sending') : t('new.submit')}
            </Button>
          </Row>
          {start.error ? (
            <InlineError role="alert">
              <p>{t('new.failed', { reason: describeFailure(start.error, { withStatus: false }) })}</p>
            </InlineError>
          ) : null}
        </Form>
      </Section>

      {playing ? <VideoPlayer key={playing.id} job={playing} /> : null}

      <Section aria-busy={list.isPending}>
        <h3>{t('list.heading')}</h3>
        {list.isPending ? (
          <div role="status">
            <Muted>{t('list.loading')}</Muted>
            <Items>
              {[0, 1, 2].map((i) => (
                <Item key={i}>
                  <SkeletonBar width="70%" />
                  <SkeletonBar width="40%" height="0.75rem" />
                </Item>
              ))}
            </Items>
          </div>
        ) : list.isError ? (
          <InlineError role="alert">
            <p>{t('list.failed', { reason: describeFailure(list.error, { withStatus: false }) })}</p>
            <Button type="button" variant="secondary" compact onClick={() => void list.refetch()}>
              {t('list.retry')}
            </Button>
          </InlineError>
        ) : jobs.length === 0 ? (
          <Muted data-testid="video-empty">{t('list.empty')}</Muted>
        ) : (
          <Items data-testid="video-list">
            {jobs.map((job) => (
              <Item key={job.id} data-testid="video-item" data-job-id={job.id}>
                <p className="prompt" title={job.prompt}>
                  {job.prompt}
                </p>
                <div className="meta">
                  <StatusText job={job} />
                  <time dateTime={job.createdAt}>{formatDate(job.createdAt)}</time>
                  {job.status === 'succeeded' ? (
                    <Button
                      type="button"
                      variant="secondary"
                      compact
                      aria-pressed={playing?.id === job.id}
                      onClick={() => setPlaying(job)}
                      data-testid="video-play"
                    >
                      <Play {...ICON} />
                      {t('list.play')}
                    </Button>
                  ) : null}
                </div>
                {isFinished(job) ? null : <JobProgress job={job} onFinished={onFinished} />}
                {job.status === 'failed' && job.error ? (
                  <InlineError>
                    <p>{t('progress.failed', { reason: job.error })}</p>
                  </InlineError>
                ) : null}
              </Item>
            ))}
          </Items>
        )}
      </Section>
    </>
  );
}

function PanelContent({ initialPrompt, onClose }: { initialPrompt: string; onClose: () => void }) {
  const t = useVideoT();
  const { user } = useAuth();
  return (
    <>
      {/* Video generation is an Enterprise feature (spec section 6): other plans are told, and nothing is asked. */}
      {allows(user?.subscriptionTier, 'video') ? <VideosBody initialPrompt={initialPrompt} /> : <UpgradeNotice />}
      <DialogActions>
        <Button type="button" variant="ghost" onClick={onClose}>
          {t('videos.close')}
        </Button>
      </DialogActions>
    </>
  );
}

function PanelTitle() {
  const t = useVideoT();
  return <>{t('videos.title')}</>;
}

/**
 * The Videos panel, in a modal: make a video from a prompt, follow it in the queue and while it renders (pushed by
 * the server), play it with captions, and see past videos. Loaded only when opened.
 */
export default function VideosPanel({ onClose, initialPrompt = '' }: { onClose: () => void; initialPrompt?: string }) {
  return (
    <SectionCatalogue loaders={VIDEO_LOADERS}>
      <ModalDialog title={<PanelTitle />} onClose={onClose} width="44rem" testId="videos-panel">
        <PanelContent initialPrompt={initialPrompt} onClose={onClose} />
      </ModalDialog>
    </SectionCatalogue>
  );
}
