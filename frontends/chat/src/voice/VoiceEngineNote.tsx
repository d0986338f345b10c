import styled from '@emotion/styled';
import type { Language } from '@kasa/contracts';
import { SectionCatalogue } from '@kasa/i18n';
import { useEffect, useState } from 'react';
import { VOICE_LOADERS } from '../i18n/voice/catalogues';
import { useVoiceT } from '../i18n/voice/useVoiceT';
import { languageInfo } from './voiceApi';

const Note = styled.p`
  display: flex;
  flex-wrap: wrap;
  gap: 0 0.25em;
  margin: 0;
  color: var(--kasa-muted);
  font-size: 0.8125rem;
`;

/**
 * Says which engine reads replies in the chosen language aloud on this server, and, when a better one (Khaya for
 * Twi, Spitch for Yoruba...) is not set up, that it is not; or that nothing speaks the language here. Nothing for
 * `auto`, or while the catalogue is out of reach.
 */
function EngineNote({ language }: { language: string }) {
  const t = useVoiceT();
  const [info, setInfo] = useState<Language | null>(null);
  useEffect(() => {
    setInfo(null);
    if (language === 'auto') return;
    let current = true;
    languageInfo(language).then(
      (found) => current && setInfo(found),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [language]);
  if (!info) return null;
  const { engine, engines } = info.speech;
  const name = info.nativeName;
  const speakerIndex = engines.findIndex((candidate) => candidate.engine === engine);
  const speaker = engines[speakerIndex];
  // The engine Kasa would rather use for this language (earlier in the routing order), when it is not set up here.
  const preferred = engines
    .slice(0, speaker ? speakerIndex : engines.length)
    .find((candidate) => !candidate.configured);
  return (
    <Note data-testid="voice-engine" data-engine={engine ?? ''}>
      <span>
        {speaker ? t('engine.speaks', { language: name, engine: speaker.name }) : t('engine.none', { language: name })}
      </span>
      {preferred ? <span>{t('engine.notSetUp', { language: name, engine: preferred.name })}</span> : null}
    </Note>
  );
}

export function VoiceEngineNote({ language }: { language: string }) {
  return (
    <SectionCatalogue loaders={VOICE_LOADERS}>
      <EngineNote language={language} />
    </SectionCatalogue>
  );
}
