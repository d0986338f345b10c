import type { SpeechVoice } from '../speech/speechProvider';

/** A voice that reads every language its engine supports (OpenAI, ElevenLabs): one entry, many languages. */
export function multilingualVoices(
  engine: string,
  voices: { id: string; name: string; gender?: 'male' | 'female'; engineVoice: string }[],
  languages: string[],
): SpeechVoice[] {
  return voices.map((v) => ({
    id: `${engine}-${v.id}`,
    name: v.name,
    languages,
    locale: 'mul',
    ...(v.gender ? { gender: v.gender } : {}),
    engine,
    engineVoice: v.engineVoice,
  }));
}

/** Voices that each read one locale (Azure, Google, Khaya, Spitch). */
export function localeVoices(
  engine: string,
  voices: { locale: string; language: string; engineVoice: string; name: string; gender: 'male' | 'female' }[],
): SpeechVoice[] {
  return voices.map((v) => ({
    id: `${engine}-${v.engineVoice}`.toLowerCase(),
    name: v.name,
    languages: [v.language],
    locale: v.locale,
    gender: v.gender,
    engine,
    engineVoice: v.engineVoice,
  }));
}

/** The languages OpenAI's speech models read and its transcription models recognize (its published list). */
export const OPENAI_LANGUAGES = (
  'en af ar hy az be bs bg ca zh hr cs da nl et fi fr gl de el he hi hu is id it ja kn kk ko lv lt mk ms mr mi ne ' +
  'no fa pl pt ro ru sr sk sl es sw sv tl ta th tr uk ur vi cy'
).split(' ');

/** The languages of ElevenLabs' multilingual v2 model. */
export const ELEVENLABS_LANGUAGES =
  'en ja zh de hi fr ko pt it es id nl tr tl pl sv bg ro ar cs el fi hr ms sk da ta uk ru'.split(' ');

/** The locale each language is heard in by the clouds that need one (Azure, Google). */
export const DEFAULT_LOCALES: Record<string, string> = {
  en: 'en-US',
  fr: 'fr-FR',
  es: 'es-ES',
  de: 'de-DE',
  pt: 'pt-BR',
  ar: 'ar-EG',
  zh: 'zh-CN',
  hi: 'hi-IN',
  ja: 'ja-JP',
  sw: 'sw-KE',
  zu: 'zu-ZA',
  am: 'am-ET',
  so: 'so-SO',
  af: 'af-ZA',
  it: 'it-IT',
  ru: 'ru-RU',
  ko: 'ko-KR',
};
