import { ProcessPoolBusyError, ProcessTimeLimitError, type ProcessPool } from './processPool';
import { runProcess, StartedProcess } from './runProcess';
import {
  SpeechEngineError,
  type PcmAudio,
  type SpeechProvider,
  type SpeechRequest,
  type SpeechVoice,
} from './speechProvider';
import { parseWav } from './wav';

/** The voice each language gets when the client names none, where eSpeak NG has several for it. */
const PREFERRED_DEFAULTS: Record<string, string> = {
  en: 'en-us',
  fr: 'fr-fr',
  es: 'es',
  pt: 'pt-br',
  zh: 'cmn',
  vi: 'vi',
};

/** The longest one eSpeak NG process may run for one chunk of text, unless told otherwise. */
const DEFAULT_TIMEOUT_MS = 20_000;

/** How the processes that speak are run: through the service's pool, with a time limit per process. */
export interface EspeakRunOptions {
  /** The bounded pool of heavy processes; without it each process runs at once (tests, the probe). */
  pool?: ProcessPool;
  /** The longest one process may run for one chunk of text (waiting for a place in the pool does not count). */
  timeoutMs?: number;
}

/** An eSpeak NG program: the system's `espeak-ng`, or the WebAssembly build run by Node (see engines.ts). */
export interface EspeakProgram {
  /** The engine's name in voices, answers and events: `espeak-ng` (system) or `espeak-ng-wasm` (from npm). */
  engine: string;
  /** What the logs call it, e.g. `espeak-ng (system)`. */
  description: string;
  command: string;
  /** Arguments before the CLI's own (the script, for the WebAssembly build). */
  args: string[];
  /**
   * Starting it costs a few hundred milliseconds (Node and the WebAssembly engine): one process is kept started
   * ahead, waiting for its text, for the voice used last.
   */
  startsSlowly: boolean;
  /** The longest listing its voices may take at start. */
  probeTimeoutMs: number;
}

/**
 * eSpeak NG (GPL-3.0) as a separate program: Kasa never links its code, it runs `espeak-ng --stdout` per chunk of
 * text (given on stdin, so that no text is ever read as an option) and reads the WAV it writes. The same code runs
 * the system program and the WebAssembly build, which takes the same options and writes the same WAV.
 */
export class EspeakProvider implements SpeechProvider {
  readonly sampleRate = 22_050;
  private spare: { key: string; process: StartedProcess } | undefined;
  private closed = false;

  private constructor(
    readonly program: EspeakProgram,
    readonly available: boolean,
    private readonly voiceList: SpeechVoice[],
    private readonly runOptions: EspeakRunOptions,
    readonly version?: string,
  ) {}

  get name(): string {
    return this.program.engine;
  }

  /** Finds the program and lists its installed voices (`espeak-ng --voices`); unavailable if either fails. */
  static async probe(
    program: EspeakProgram,
    mapLanguage: (tag: string) => string | undefined,
    runOptions: EspeakRunOptions = {},
  ): Promise<EspeakProvider> {
    const unavailable = new EspeakProvider(program, false, [], runOptions);
    try {
      const signal = AbortSignal.timeout(program.probeTimeoutMs);
      const run = (flag: string) => runProcess(program.command, [...program.args, flag], { signal });
      const [listing, version] = await Promise.all([run('--voices'), run('--version')]);
      if (listing.code !== 0) return unavailable;
      const voices = parseVoiceListing(listing.stdout.toString('utf8'), mapLanguage, program.engine);
      const versionText = /text-to-speech:\s*([\w.-]+)/.exec(version.stdout.toString('utf8'))?.[1];
      const provider = new EspeakProvider(program, voices.length > 0, voices, runOptions, versionText);
      // The first request is most likely in the default voice of English.
      const first = voices.find((v) => v.id === PREFERRED_DEFAULTS.en);
      if (program.startsSlowly && first) provider.startAhead(speakOptions(first));
      return provider;
    } catch {
      return unavailable;
    }
  }

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  /**
   * Speaks one chunk of text in a process of its own, through the pool when there is one: the process gets a place
   * (or waits for one; a full queue is a ProcessPoolBusyError), runs under the time limit (ProcessTimeLimitError),
   * and is stopped when the caller's signal aborts.
   */
  async synthesize({ text, voice, signal, background }: SpeechRequest): Promise<PcmAudio> {
    const engine = this.program.engine;
    const { pool, timeoutMs = DEFAULT_TIMEOUT_MS } = this.runOptions;
    const speak = (processSignal: AbortSignal) => {
      const speaker = this.start(speakOptions(voice));
      if (background) speaker.deprioritize();
      return speaker.run(text, processSignal);
    };
    let result;
    try {
      result = pool
        ? await pool.run(speak, { what: 'speech synthesis', timeoutMs, signal })
        : await speak(AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
    } catch (err) {
      if (err instanceof ProcessPoolBusyError || err instanceof ProcessTimeLimitError) throw err;
      if (signal.aborted || (err as Error).name === 'AbortError')
        throw new SpeechEngineError(engine, 'timed out or cancelled');
      throw new SpeechEngineError(engine, `could not be started (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (result.code !== 0) throw new SpeechEngineError(engine, `exited with code ${String(result.code)}`);
    try {
      return parseWav(result.stdout);
    } catch (err) {
      throw new SpeechEngineError(engine, (err as Error).message);
    }
  }

  /** Stops the process kept started ahead. */
  close(): void {
    this.closed = true;
    this.spare?.process.kill();
    this.spare = undefined;
  }

  /**
   * A process for these options: the one started ahead when it was started for them, else a new one. A program that
   * starts slowly gets its next process started at once, for the next chunk of text (most often in the same voice).
   */
  private start(options: string[]): StartedProcess {
    const { command, args, startsSlowly } = this.program;
    const key = options.join('\0');
    const spare = this.spare;
    this.spare = undefined;
    const ready = spare?.key === key && spare.process.ready ? spare.process : undefined;
    if (spare && !ready) spare.process.kill();
    const chosen = ready ?? new StartedProcess(command, [...args, ...options]);
    if (startsSlowly) this.startAhead(options);
    return chosen;
  }

  private startAhead(options: string[]): void {
    if (this.closed) return;
    const { command, args } = this.program;
    this.spare = { key: options.join('\0'), process: new StartedProcess(command, [...args, ...options]) };
  }
}

/** The CLI's options for speaking in a voice: WAV on stdout, the text (stdin) as UTF-8. */
function speakOptions(voice: SpeechVoice): string[] {
  return ['--stdout', '-b', '1', '-v', voice.engineVoice];
}

/**
 * Parses `espeak-ng --voices`: `Pty Language Age/Gender VoiceName File Other-Languages`, e.g.
 * ` 5  cmn  --/M  Chinese_(Mandarin,_latin_as_English)  sit/cmn  (zh-cmn 5)(zh 5)`. Each voice is offered as it is
 * (male) and with eSpeak's female variant f3.
 */
export function parseVoiceListing(
  listing: string,
  mapLanguage: (tag: string) => string | undefined,
  engine = 'espeak-ng',
): SpeechVoice[] {
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
      engine,
      engineVoice: file,
    });
    voices.push({
      id: `${id}+f`,
      name: `${name}, female`,
      languages,
      locale: tag,
      gender: 'female',
      engine,
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
