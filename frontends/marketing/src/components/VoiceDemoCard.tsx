import styled from '@emotion/styled';
import type { VoiceSample } from '@kasa/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { synthesizeSample, useVoiceSamples, voiceProblem } from '../api/voice';
import { useFormats } from '../i18n/format';
import { useT, type MessageId } from '../i18n/useT';
import { Button } from '../ui';

const Card = styled.section`
  max-width: 40rem;
  margin: 2.5rem auto 0;
  padding: 1.5rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  box-shadow: var(--kasa-shadow);
  h2 {
    margin: 0 0 0.25rem;
    font-size: 1.25rem;
  }
  blockquote {
    margin: 1rem 0;
    padding: 0.75rem 1rem;
    border-left: 4px solid var(--kasa-primary);
    background: var(--kasa-surface-muted);
    border-radius: var(--kasa-radius);
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.75rem;
  label {
    font-weight: 600;
  }
  select {
    min-height: 2.75rem;
    padding: 0.25rem 0.5rem;
    border: 1px solid var(--kasa-muted);
    border-radius: var(--kasa-radius);
    background: var(--kasa-surface);
    color: var(--kasa-fg);
    font: inherit;
  }
`;

const Note = styled.p`
  margin: 0.75rem 0 0;
  color: var(--kasa-muted);
`;

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'playing' } | { kind: 'failed'; message: MessageId };

/**
 * The landing page's voice demo: reads one of the public sample sentences aloud through the voice service. When
 * the service or its speech engine is not available it says so instead of pretending.
 */
export function VoiceDemoCard() {
  const t = useT();
  const { languageName } = useFormats();
  const label = (sample: VoiceSample) =>
    t('voiceDemo.option', { language: languageName(sample.language), voice: sample.voice });
  const samples = useVoiceSamples();
  const [chosen, setChosen] = useState<string>();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const audio = useRef<HTMLAudioElement | null>(null);
  const selectId = useId();

  useEffect(() => () => audio.current?.pause(), []);

  const list = samples.data?.samples ?? [];
  const sample = list.find((s) => s.id === chosen) ?? list[0];

  const play = async () => {
    if (!sample) return;
    audio.current?.pause();
    setState({ kind: 'loading' });
    try {
      const { audioUrl } = await synthesizeSample(sample);
      const player = new Audio(audioUrl);
      audio.current = player;
      player.onended = () => setState({ kind: 'idle' });
      await player.play();
      setState({ kind: 'playing' });
    } catch (error) {
      const blocked = error instanceof DOMException;
      setState({
        kind: 'failed',
        message: blocked ? 'voiceDemo.blocked' : voiceProblem(error),
      });
    }
  };

  let body;
  if (samples.isPending) {
    body = <Note>{t('voiceDemo.checking')}</Note>;
  } else if (samples.isError) {
    body = <Note role="status">{t(voiceProblem(samples.error))}</Note>;
  } else if (!sample) {
    body = <Note role="status">{t('voiceDemo.noVoice')}</Note>;
  } else {
    body = (
      <>
        <blockquote lang={sample.language}>{sample.text}</blockquote>
        <Row>
          <label htmlFor={selectId}>{t('voiceDemo.voice')}</label>
          <select id={selectId} value={sample.id} onChange={(event) => setChosen(event.target.value)}>
            {list.map((s) => (
              <option key={s.id} value={s.id}>
                {label(s)}
              </option>
            ))}
          </select>
          <Button type="button" variant="primary" onClick={play} disabled={state.kind === 'loading'}>
            {state.kind === 'loading'
              ? t('voiceDemo.preparing')
              : state.kind === 'playing'
                ? t('voiceDemo.playAgain')
                : t('voiceDemo.play')}
          </Button>
        </Row>
        <Note role="status" data-testid="voice-demo-status">
          {state.kind === 'failed'
            ? t(state.message)
            : state.kind === 'playing'
              ? t('voiceDemo.playing')
              : t('voiceDemo.engine')}
        </Note>
      </>
    );
  }

  return (
    <Card aria-labelledby="voice-demo-title" data-testid="voice-demo">
      <h2 id="voice-demo-title">{t('voiceDemo.title')}</h2>
      <p>{t('voiceDemo.intro')}</p>
      {body}
    </Card>
  );
}
