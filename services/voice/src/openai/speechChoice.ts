import { OPENAI_VOICE_NAMES } from '@kasa/contracts';
import type { LanguageDetector } from '@kasa/language-detect';
import type { LanguageCatalogue } from '../languages/catalogue';
import type { SpeechChain } from '../speech/speechChain';
import type { SpeechVoice } from '../speech/speechProvider';

type OpenAIVoiceName = (typeof OPENAI_VOICE_NAMES)[number];

/**
 * How each of OpenAI's voices sounds, as OpenAI describes them: a voice of that kind is taken where the engine has
 * one (eSpeak NG has a female variant of each voice); the neutral ones take the language's default voice.
 */
const OPENAI_VOICE_KIND: Record<OpenAIVoiceName, 'female' | 'male' | undefined> = {
  alloy: undefined,
  ash: 'male',
  ballad: 'male',
  cedar: 'male',
  coral: 'female',
  echo: 'male',
  fable: undefined,
  marin: 'female',
  nova: 'female',
  onyx: 'male',
  sage: 'female',
  shimmer: 'female',
  verse: 'male',
};

const isOpenAIVoice = (name: string): name is OpenAIVoiceName => Object.hasOwn(OPENAI_VOICE_KIND, name);

/** The language and voice id to give the speech service; it refuses what no engine speaks, naming why. */
export interface SpeechChoice {
  /** A catalogue code, or the tag as asked when the catalogue does not know it (refused as unknown_language). */
  language: string;
  /** A voice id of the chain, or the one asked for when the chain has none by that name (refused as unknown_voice). */
  voice: string | undefined;
}

export interface SpeechChoiceDeps {
  chain: Pick<SpeechChain, 'voices' | 'pickVoice' | 'canSpeak'>;
  detector: Pick<LanguageDetector, 'detect'>;
  catalogue: Pick<LanguageCatalogue, 'get'>;
}

/**
 * Which language a text of the OpenAI-compatible route is read in and by which voice. `language` given: that one.
 * Left out (`auto`): the detected language where a voice here speaks it, else English, since an OpenAI client cannot
 * say which language it sent (the Twi greeting "Akwaaba" is read rather than refused where no voice speaks Twi); with
 * a Kasa voice id, the voice's own language when it does not speak the detected one.
 */
export function chooseSpeech(
  request: { text: string; voice: string; language: string },
  deps: SpeechChoiceDeps,
): SpeechChoice {
  const { chain } = deps;
  const asked = request.voice.trim().toLowerCase();
  const kasaVoice = isOpenAIVoice(asked) ? undefined : chain.voices().find((v) => v.id === asked);
  const language =
    request.language === 'auto'
      ? detectedLanguage(request.text, deps, kasaVoice)
      : (deps.catalogue.get(request.language)?.code ?? request.language);
  if (!isOpenAIVoice(asked)) return { language, voice: asked };
  return { language, voice: voiceLike(asked, language, chain)?.id };
}

function detectedLanguage(text: string, deps: SpeechChoiceDeps, kasaVoice: SpeechVoice | undefined): string {
  const { language } = deps.detector.detect(text);
  if (kasaVoice) return kasaVoice.languages.includes(language) ? language : kasaVoice.languages[0]!;
  return deps.chain.canSpeak(language) || !deps.chain.canSpeak('en') ? language : 'en';
}

/**
 * The chain's voice for an OpenAI voice name: OpenAI's own voice of that name where that engine reads the language,
 * else the language's default voice or, for a female or male name, its sibling of that kind in the same engine and
 * locale. Undefined when nothing speaks the language (the speech service then says so).
 */
function voiceLike(name: OpenAIVoiceName, language: string, chain: SpeechChoiceDeps['chain']): SpeechVoice | undefined {
  const voices = chain.voices(language);
  const same = voices.find((v) => v.id === name);
  if (same) return same;
  const fallback = chain.pickVoice(language);
  const kind = OPENAI_VOICE_KIND[name];
  if (!fallback || !kind || fallback.gender === kind) return fallback;
  const sibling = (v: SpeechVoice) => v.engine === fallback.engine && v.gender === kind;
  return (
    voices.find((v) => sibling(v) && v.locale === fallback.locale) ??
    voices.find((v) => sibling(v) && v.languages[0] === language) ??
    fallback
  );
}
