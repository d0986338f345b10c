import styled from '@emotion/styled';
import { useId, useSyncExternalStore } from 'react';
import { Button, ICON, Pause, Play, Select, TOUCH_MEDIA, TOUCH_TARGET, VisuallyHidden } from '@kasa/ui';
import { replyPlayer, type PlaybackState } from './replyPlayer';
import { PLAYBACK_SPEEDS } from './voicePreferences';
import { VoiceUpgradeNotice } from './VoiceUpgradeNotice';
import { useT } from '../i18n/useT';

const Controls = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.25rem 0.5rem;
  label {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
  }
  select {
    min-height: 2rem;
    padding: 0 0.25rem;
  }
  ${TOUCH_MEDIA} {
    select {
      min-height: ${TOUCH_TARGET};
    }
  }
`;

const STATE_LABELS: Record<PlaybackState, string> = {
  idle: '',
  loading: 'Loading audio…',
  playing: 'Playing',
  paused: 'Paused',
  error: 'Audio error',
  upgrade: '',
};

const speedLabel = (speed: number) => `${speed}×`;

/**
 * A reply's playback controls: Play/Pause, the speed, and what the audio is doing. The audio is asked for on the
 * first Play and kept for the page's life (see ReplyPlayer).
 */
export default function ReplyAudio({ id, text, language }: { id: string; text: string; language: string }) {
  const t = useT();
  const snapshot = useSyncExternalStore(replyPlayer.subscribe, replyPlayer.getSnapshot);
  const speedId = useId();
  const active = snapshot.activeId === id;
  const state: PlaybackState = active ? snapshot.state : 'idle';
  const busy = state === 'playing' || state === 'loading';

  if (state === 'upgrade') return <VoiceUpgradeNotice compact />;

  return (
    <Controls data-testid="reply-audio-controls" data-state={state}>
      <Button type="button" variant="ghost" compact onClick={() => replyPlayer.toggle({ id, text, language })}>
        {busy ? <Pause {...ICON} /> : <Play {...ICON} />}
        {busy ? t('audio.pause') : t('audio.play')}
        <VisuallyHidden>{t('audio.thisReply')}</VisuallyHidden>
      </Button>
      <label htmlFor={speedId}>
        <VisuallyHidden>{t('audio.speed')}</VisuallyHidden>
        <Select
          id={speedId}
          value={String(snapshot.speed)}
          onChange={(event) => replyPlayer.setSpeed(Number(event.target.value))}
        >
          {PLAYBACK_SPEEDS.map((speed) => (
            <option key={speed} value={String(speed)}>
              {speedLabel(speed)}
            </option>
          ))}
        </Select>
      </label>
      <span role="status" data-testid="reply-audio-state">
        {active && snapshot.message ? snapshot.message : STATE_LABELS[state]}
      </span>
    </Controls>
  );
}
