import type { VoiceSample } from '@kasa/contracts';

/**
 * The sentences the landing page's voice demo may have read aloud without signing in. Only these are synthesized
 * for anonymous callers (and Free users), and their audio is cached, so the demo costs almost nothing to serve.
 */
export const VOICE_SAMPLES: readonly VoiceSample[] = [
  { id: 'welcome-en', language: 'en', voice: 'en-us', text: 'Hello, I am Kasa. Your voice, your AI, your world.' },
  {
    id: 'welcome-en-female',
    language: 'en',
    voice: 'en-us+f',
    text: 'Ask me anything, in your own language, and I will answer out loud.',
  },
  { id: 'welcome-sw', language: 'sw', voice: 'sw', text: 'Habari! Mimi ni Kasa, msaidizi wako wa sauti.' },
  {
    id: 'welcome-fr',
    language: 'fr',
    voice: 'fr-fr',
    text: 'Bonjour, je suis Kasa. Votre voix, votre IA, votre monde.',
  },
  {
    id: 'welcome-es',
    language: 'es',
    voice: 'es',
    text: 'Hola, soy Kasa. Tu voz, tu inteligencia artificial, tu mundo.',
  },
  { id: 'welcome-pt', language: 'pt', voice: 'pt-br', text: 'Olá, eu sou a Kasa. Sua voz, sua IA, seu mundo.' },
  { id: 'welcome-de', language: 'de', voice: 'de', text: 'Hallo, ich bin Kasa. Deine Stimme, deine KI, deine Welt.' },
  { id: 'welcome-ar', language: 'ar', voice: 'ar', text: 'مرحبا، أنا كاسا. صوتك، ذكاؤك الاصطناعي، عالمك.' },
  { id: 'welcome-hi', language: 'hi', voice: 'hi', text: 'नमस्ते, मैं कासा हूँ। आपकी आवाज़, आपका एआई, आपकी दुनिया।' },
];

const normalize = (text: string): string => text.normalize('NFC').replace(/\s+/g, ' ').trim();
const byText = new Map(VOICE_SAMPLES.map((sample) => [normalize(sample.text), sample]));

/** The sample with exactly this text (spacing aside), if any. */
export function findSample(text: string): VoiceSample | undefined {
  return byText.get(normalize(text));
}
