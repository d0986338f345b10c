import type { LanguageSpeech } from '@kasa/contracts';
import type { SpeechProvider } from '../speech/speechProvider';

/** Each engine's name for people. */
const ENGINE_NAMES: Record<string, string> = {
  spitch: 'Spitch',
  khaya: 'Khaya (GhanaNLP)',
  azure: 'Azure AI Speech',
  google: 'Google Cloud Text-to-Speech',
  elevenlabs: 'ElevenLabs',
  openai: 'OpenAI',
  'espeak-ng': 'eSpeak NG (offline)',
  'espeak-ng-wasm': 'eSpeak NG (offline)',
};

/**
 * Which engine speaks each language: every engine Kasa can route to (`routable`, in routing order, configured or
 * not) with a voice for it, whether this server has that engine (`configured`: the engine names of the chain), and
 * the one that speaks it here (`speaker`: the chain's choice).
 */
export function languageSpeech(deps: {
  routable: SpeechProvider[];
  configured: ReadonlySet<string>;
  speaker: (code: string) => string | undefined;
}): (code: string) => LanguageSpeech {
  const byEngine = deps.routable.map((engine) => ({
    engine: engine.name,
    languages: new Set(engine.voices().flatMap((voice) => voice.languages)),
  }));
  return (code) => ({
    engine: deps.speaker(code) ?? null,
    engines: byEngine
      .filter(({ languages }) => languages.has(code))
      .map(({ engine }) => ({
        engine,
        name: ENGINE_NAMES[engine] ?? engine,
        configured: deps.configured.has(engine),
      })),
  });
}
