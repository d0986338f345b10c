import styled from '@emotion/styled';
import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { Button, ICON, InlineError, MessageCircle, Mic, Paperclip, visuallyHidden, Volume2 } from '@kasa/ui';
import type { Capture, CaptureEvents, CaptureState } from './capture';
import type { VoiceError } from './voiceFailures';
import { loadedReplyPlayer } from './voicePreferences';
import { VoiceEngineNote } from './VoiceEngineNote';
import { VoiceUpgradeNotice } from './VoiceUpgradeNotice';
import { useT } from '../i18n/useT';

type Failure = Pick<VoiceError, 'message' | 'kind'>;
const LOAD_FAILURE: Failure = { message: 'Voice could not load. Check your connection and try again.', kind: 'failed' };

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  font-size: 0.875rem;
`;

const FileInput = styled.input`
  ${visuallyHidden}
  &:focus-visible + label {
    outline: 2px solid var(--kasa-focus, var(--kasa-primary));
    outline-offset: 2px;
  }
  &:disabled + label {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

/** Looks like the ghost button beside it; the input it labels is what takes focus and opens the file picker. */
const FileLabel = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  min-height: 2rem;
  padding: 0.125rem 0.625rem;
  border: 2px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  font-weight: 600;
  cursor: pointer;
  &:hover {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
`;

const Status = styled.span`
  color: var(--kasa-muted);
  min-width: 0;
  overflow-wrap: anywhere;
`;

/** Held at least this long, the microphone button is push-to-talk (let go to send); a shorter press toggles. */
const HOLD_MS = 350;

const loadCapture = () => import(/* webpackChunkName: "voice-capture" */ './capture');
/** The voice activity detector and its loop: loaded when hands-free voice is turned on. */
const HandsFreePanel = lazy(() => import(/* webpackChunkName: "hands-free" */ './HandsFreePanel'));

/**
 * The composer's voice controls: push-to-talk, sending an audio file, voice mode (replies read aloud) and
 * hands-free voice (listens, answers aloud, listens again). A plan without voice sees the upgrade notice instead.
 * The recording, transcription and hands-free code loads on first use.
 */
export function VoiceComposerControls({
  allowed,
  language,
  disabled,
  voiceMode,
  onVoiceModeChange,
  onTranscript,
  onBargeIn,
}: {
  /** The person's plan includes voice. */
  allowed: boolean;
  language: string;
  /** A reply is being written. */
  disabled: boolean;
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  /** A transcript to send as a voice message, with its language. */
  onTranscript: (text: string, language: string) => void;
  /** The person spoke over the reply in hands-free voice: stop writing it. */
  onBargeIn: () => void;
}) {
  const t = useT();
  const [state, setState] = useState<CaptureState>('idle');
  const [heard, setHeard] = useState('');
  const [error, setError] = useState<Failure | null>(null);
  const [handsFree, setHandsFree] = useState(false);
  const capture = useRef<Capture | null>(null);
  const starting = useRef(false);
  const pressedAt = useRef(0);
  const fileId = useId();
  const mounted = useRef(true);
  const sendTranscript = useRef(onTranscript);
  sendTranscript.current = onTranscript;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      capture.current?.cancel();
    };
  }, []);

  if (!allowed) return <VoiceUpgradeNotice />;

  const events: CaptureEvents = {
    onState: (next) => {
      if (!mounted.current) return;
      setState(next);
      if (next !== 'listening') capture.current = null;
      if (next === 'idle') setHeard('');
    },
    onInterim: (text) => mounted.current && setHeard(text),
    onTranscript: (text, lang) => mounted.current && sendTranscript.current(text, lang),
    onError: (failure) => {
      if (!mounted.current) return;
      capture.current = null;
      setState('idle');
      setError(failure);
    },
  };

  const start = async () => {
    if (capture.current || starting.current) return;
    starting.current = true;
    setError(null);
    setHeard('');
    // A reply being read aloud would be heard by the microphone too.
    void loadedReplyPlayer()?.then(({ replyPlayer }) => replyPlayer.pause());
    try {
      const { startCapture } = await loadCapture();
      capture.current = startCapture(language, events);
    } catch {
      setError(LOAD_FAILURE);
    } finally {
      starting.current = false;
    }
  };

  const finish = () => capture.current?.finish();

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || disabled || state === 'transcribing') return;
    // The button keeps the pointer until it is let go, so that letting go ends the recording even when the button
    // moved under it (a status line appearing) or the finger slid off it.
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pressedAt.current = Date.now();
    if (state === 'listening') {
      pressedAt.current = 0;
      finish();
    } else void start();
  };
  const onPointerUp = () => {
    if (pressedAt.current && Date.now() - pressedAt.current >= HOLD_MS) finish();
    pressedAt.current = 0;
  };
  // Enter and Space (a click without a pointer): press once to start, again to send.
  const onClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (event.detail !== 0) return;
    if (state === 'listening') finish();
    else void start();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Escape' && capture.current) {
      capture.current.cancel();
      capture.current = null;
      setState('idle');
      setHeard('');
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.type && !file.type.startsWith('audio/') && !file.type.startsWith('video/')) {
      setError({
        message: `${file.name} is not an audio file. Choose a recording (WAV, MP3, OGG, WebM or M4A).`,
        kind: 'failed',
      });
      return;
    }
    try {
      const { transcribeAndSend } = await loadCapture();
      await transcribeAndSend(file, language, events);
    } catch {
      setError(LOAD_FAILURE);
    }
  };

  const listening = state === 'listening';
  const transcribing = state === 'transcribing';
  const status = listening
    ? heard
      ? t('voice.heard', { heard })
      : t('voice.listening')
    : transcribing
      ? t('voice.transcribing')
      : '';

  return (
    <>
      <Row data-testid="voice-controls">
        <Button
          type="button"
          variant={listening ? 'primary' : 'secondary'}
          compact
          aria-pressed={listening}
          disabled={(disabled && !listening) || transcribing || handsFree}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerLeave={onPointerUp}
          onPointerCancel={onPointerUp}
          onClick={onClick}
          onKeyDown={onKeyDown}
          onContextMenu={(event) => event.preventDefault()}
          style={{ touchAction: 'none' }}
        >
          <Mic {...ICON} />
          {t('voice.pushToTalk')}
        </Button>
        <FileInput
          id={fileId}
          type="file"
          accept="audio/*"
          disabled={disabled || listening || transcribing}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            void onFile(file);
          }}
        />
        <FileLabel htmlFor={fileId}>
          <Paperclip {...ICON} />
          {t('voice.sendFile')}
        </FileLabel>
        <Button
          type="button"
          variant={voiceMode ? 'primary' : 'ghost'}
          compact
          aria-pressed={voiceMode}
          onClick={() => onVoiceModeChange(!voiceMode)}
          title={t('voice.modeHint')}
        >
          <Volume2 {...ICON} />
          {t('voice.mode')}
        </Button>
        <Button
          type="button"
          variant={handsFree ? 'primary' : 'ghost'}
          compact
          aria-pressed={handsFree}
          disabled={listening || transcribing}
          onClick={() => {
            setError(null);
            if (!handsFree) {
              capture.current?.cancel();
              onVoiceModeChange(true); // the answers are spoken
            }
            setHandsFree(!handsFree);
          }}
          title={t('voice.handsFreeHint')}
        >
          <MessageCircle {...ICON} />
          {t('voice.handsFree')}
        </Button>
        <Status role="status" data-testid="voice-status">
          {status}
        </Status>
      </Row>
      <VoiceEngineNote language={language} />
      {handsFree ? (
        <Suspense fallback={null}>
          <HandsFreePanel
            language={language}
            busy={disabled}
            onTranscript={(text, lang) => sendTranscript.current(text, lang)}
            onBargeIn={onBargeIn}
            onExit={(failure) => {
              setHandsFree(false);
              if (failure) setError(failure);
            }}
          />
        </Suspense>
      ) : null}
      {error ? (
        <InlineError role="alert" data-testid="voice-error">
          {error.kind === 'upgrade' ? <VoiceUpgradeNotice /> : <p>{error.message}</p>}
          <Button type="button" variant="ghost" compact onClick={() => setError(null)}>
            {t('common.dismiss')}
          </Button>
        </InlineError>
      ) : null}
    </>
  );
}
