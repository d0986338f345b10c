import styled from '@emotion/styled';
import { SectionCatalogue } from '@kasa/i18n';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { VOICE_LOADERS } from '../i18n/voice/catalogues';
import { useVoiceT, type VoiceMessageId } from '../i18n/voice/useVoiceT';
import { Button, ICON, InlineError, Mic, X } from '@kasa/ui';
import { startHandsFree, type HandsFree } from './handsFree';
import { replyPlayer } from './replyPlayer';
import type { VoiceError } from './voiceFailures';

/** What hands-free voice is doing, as the person sees it (and `data-state` says). */
export type HandsFreeState = 'starting' | 'listening' | 'hearing' | 'thinking' | 'speaking';

const LABELS: Record<HandsFreeState, VoiceMessageId> = {
  starting: 'handsFree.starting',
  listening: 'handsFree.listening',
  hearing: 'handsFree.hearing',
  thinking: 'handsFree.thinking',
  speaking: 'handsFree.speaking',
};

const Panel = styled.section`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
  padding: 0.5rem 0.75rem;
  border: 2px solid var(--kasa-primary);
  border-radius: var(--kasa-radius);
  font-size: 0.875rem;
`;

const Light = styled.span<{ state: HandsFreeState }>`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  font-weight: 600;
  color: ${({ state }) => (state === 'hearing' || state === 'speaking' ? 'var(--kasa-primary)' : 'var(--kasa-fg)')};
`;

export interface HandsFreePanelProps {
  language: string;
  /** A reply is being written. */
  busy: boolean;
  /** Sends what the person said as a voice message. */
  onTranscript: (text: string, language: string) => void;
  /** The person spoke over the reply: stop writing it. */
  onBargeIn: () => void;
  /** Leaves hands-free voice; with the failure that ended it, if one did (the microphone refused...). */
  onExit: (failure?: VoiceError) => void;
}

/**
 * The hands-free loop on screen: listening, hearing the person, thinking (transcribing, the reply being written),
 * speaking (the reply read aloud as it streams); speaking over Kasa stops it and listens. One button leaves.
 */
function HandsFreeLoop({ language, busy, onTranscript, onBargeIn, onExit }: HandsFreePanelProps) {
  const t = useVoiceT();
  const player = useSyncExternalStore(replyPlayer.subscribe, replyPlayer.getSnapshot);
  const [phase, setPhase] = useState<'starting' | 'listening' | 'hearing' | 'transcribing'>('starting');
  const [error, setError] = useState<Pick<VoiceError, 'message'> | null>(null);
  const latest = useRef({ busy, onTranscript, onBargeIn, onExit });
  latest.current = { busy, onTranscript, onBargeIn, onExit };

  useEffect(() => {
    let handsFree: HandsFree | null = null;
    let left = false;
    startHandsFree(language, {
      onSpeechStart: () => {
        setError(null);
        setPhase('hearing');
        const speaking = ['playing', 'loading'].includes(replyPlayer.getSnapshot().state);
        if (speaking || latest.current.busy) {
          // Barge-in: the person's voice wins over Kasa's.
          replyPlayer.stop();
          latest.current.onBargeIn();
        }
      },
      onMisfire: () => setPhase('listening'),
      onTranscribing: () => setPhase('transcribing'),
      onTranscript: (text, lang) => {
        setPhase('listening');
        latest.current.onTranscript(text, lang);
      },
      onError: (failure) => {
        setPhase('listening');
        setError(failure);
      },
    }).then(
      (started) => {
        if (left) void started.stop();
        else {
          handsFree = started;
          setPhase('listening');
        }
      },
      (failure: VoiceError) => {
        if (!left) latest.current.onExit(failure);
      },
    );
    return () => {
      left = true;
      void handsFree?.stop();
    };
  }, [language]);

  const playing = player.activeId !== null && (player.state === 'playing' || player.state === 'loading');
  const state: HandsFreeState =
    phase === 'starting' || phase === 'hearing'
      ? phase
      : playing
        ? 'speaking'
        : phase === 'transcribing' || busy
          ? 'thinking'
          : 'listening';

  return (
    <Panel aria-label={t('handsFree.region')} data-testid="hands-free" data-state={state}>
      <Light state={state} role="status">
        <Mic {...ICON} />
        {t(LABELS[state])}
      </Light>
      <Button type="button" variant="secondary" compact onClick={() => onExit()}>
        <X {...ICON} />
        {t('handsFree.exit')}
      </Button>
      {error ? (
        <InlineError role="alert" data-testid="hands-free-error">
          <p>{error.message}</p>
        </InlineError>
      ) : null}
    </Panel>
  );
}

/** Hands-free voice with its messages (loaded with it). */
export default function HandsFreePanel(props: HandsFreePanelProps) {
  return (
    <SectionCatalogue loaders={VOICE_LOADERS}>
      <HandsFreeLoop {...props} />
    </SectionCatalogue>
  );
}
