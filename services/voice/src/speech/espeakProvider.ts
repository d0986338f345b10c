import { runProcess } from './runProcess';
import {
  SpeechEngineError,
  type PcmAudio,
  type SpeechProvider,
  type SpeechRequest,
  type SpeechVoice,
} from './speechProvider';
import { parseWav } from './wav';

const ENGINE = 'espeak-ng';
const PROBE_TIMEOUT_MS = 5_000;

/** The voice each language gets when the client names none, where eSpeak NG has several for it. */
const PREFERRED_DEFAULTS: Record<string, string> = {
  en: 'en-us',
  fr: 'fr-fr',
  es: 'es',
  pt: 'pt-br',
  zh: 'cmn',
  vi: 'vi',
};

/**
 * eSpeak NG (GPL-3.0) as a separate program: Kasa never links its code, it runs `espeak-ng --stdout` per chunk of
 * text (given on stdin, so that no text is ever read as an option) and reads the WAV it writes.
 */
export class EspeakProvider implements SpeechProvider {
  readonly name = ENGINE;
  readonly sampleRate = 22_050;

  private constructor(
    private readonly bin: string,
    readonly available: boolean,
    private readonly voiceList: SpeechVoice[],
    readonly version?: string,
  ) {}

  /** Finds the program and lists its installed voices (`espeak-ng --voices`); unavailable if either fails. */
  static async probe(bin: string, mapLanguage: (tag: string) => string | undefined): Promise<EspeakProvider> {
    try {
      const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
      const [listing, version] = await Promise.all([
        runProcess(bin, ['--voices'], { signal }),
        runProcess(bin, ['--version'], { signal }),
      ]);
      if (listing.code !== 0) return new EspeakProvider(bin, false, []);
      const voices = parseVoiceListing(listing.stdout.toString('utf8'), mapLanguage);
      const versionText = /text-to-speech:\s*([\w.-]+)/.exec(version.stdout.toString('utf8'))?.[1];
      return new EspeakProvider(bin, voices.length > 0, voices, versionText);
    } catch {
      return new EspeakProvider(bin, false, []);
    }
  }

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    let result;
    try {
      result = await runProcess(this.bin, ['--stdout', '-b', '1', '-v', voice.engineVoice], { input: text, signal });
    } catch (err) {
      if (signal.aborted) throw new SpeechEngineError(ENGINE, 'timed out or cancelled');
      throw new SpeechEngineError(ENGINE, `could not be started (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (result.code !== 0) throw new SpeechEngineError(ENGINE, `exited with code ${String(result.code)}`);
    try {
      return parseWav(result.stdout);
    } catch (err) {
      throw new SpeechEngineError(ENGINE, (err as Error).message);
    }
  }
}

/**
 * Parses `espeak-ng --voices`: `Pty Language Age/Gender VoiceName File Other-Languages`, e.g.
 * ` 5  cmn  --/M  Chinese_(Mandarin,_latin_as_English)  sit/cmn  (zh-cmn 5)(zh 5)`. Each voice is offered as it is
 * (male) and with eSpeak's female variant f3.
 */
export function parseVoiceListing(listing: string, mapLanguage: (tag: string) => string | undefined): SpeechVoice[] {
  const voices: SpeechVoice[] = [];
  const seen = new Set<string>();
  for (const line of listing.split('\n').slice(1)) {
    const match = /^\s*\d+\s+(\S+)\s+\S*\/([MF-])\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, tag, gender, rawName, file, others] = match as unknown as [string, string, string, string, string, string];
    const tags = [tag, ...[...others.matchAll(/\(([\w-]+)\s+\d+\)/g)].map((m) => m[1]!)];
    const languages = [...new Set(tags.map((t) => mapLanguage(t)).filter((code): code is string => !!code))];
    if (languages.length === 0) continue;
    let id = tag.toLowerCase();
    if (seen.has(id)) id = file.split('/').pop()!.toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    const name = rawName.replace(/_/g, ' ');
    voices.push({
      id,
      name,
      languages,
      locale: tag,
      gender: gender === 'F' ? 'female' : 'male',
      engine: ENGINE,
      engineVoice: file,
    });
    voices.push({
      id: `${id}+f`,
      name: `${name}, female`,
      languages,
      locale: tag,
      gender: 'female',
      engine: ENGINE,
      engineVoice: `${file}+f3`,
    });
  }
  return voices.sort((a, b) => preference(a) - preference(b));
}

/** Default voices first, then the voices named after their language (`sw` before `fa-latn`), male before female. */
function preference(voice: SpeechVoice): number {
  const language = voice.languages[0]!;
  if (PREFERRED_DEFAULTS[language] === voice.id) return 0;
  if (voice.id === language) return 1;
  return voice.id.includes('+') ? 3 : 2;
}
