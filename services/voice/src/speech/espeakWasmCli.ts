/**
 * `espeak-ng` for machines without Debian's package: eSpeak NG compiled to WebAssembly with its voice data, from the
 * npm package `@echogarden/espeak-ng-emscripten` (GPL-3.0). It runs as a program of its own
 * (`node espeakWasmCli.js ...`), never inside the service: Kasa keeps eSpeak NG at arm's length, as it does the system
 * program. It answers the options EspeakProvider gives the real CLI, the same way:
 *
 *   --voices              the voice listing, in espeak-ng's own columns
 *   --version             `eSpeak NG text-to-speech: <version>`
 *   --stdout | -w <file>  the speech as a 16-bit mono WAV, on stdout or into a file
 *   -b 1                  the text is UTF-8 (the only encoding accepted)
 *   -v <voice>            a voice file or name, optionally with a variant (`bnt/sw+f3`)
 *
 * The text is the arguments left over, else all of stdin. The engine is loaded before stdin is read, so that a
 * process started ahead of time (see EspeakProvider) only has to speak once it gets its text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EspeakModule, EspeakVoiceStruct, EspeakWorker } from '@echogarden/espeak-ng-emscripten';

const PACKAGE = '@echogarden/espeak-ng-emscripten';
/**
 * The CLI ends its text with a pause (espeakENDPAUSE: 0.294 s at the default rate) that the build's synthesis call
 * leaves out; added, chunks of text follow each other as they do with the system program.
 */
const END_PAUSE_SECONDS = 0.294;

interface Options {
  voices: boolean;
  version: boolean;
  stdout: boolean;
  wavFile?: string;
  voice: string;
  text: string[];
}

class UsageError extends Error {}

function parseArguments(args: string[]): Options {
  const options: Options = { voices: false, version: false, stdout: false, voice: 'en', text: [] };
  const value = (i: number, flag: string) => {
    const next = args[i + 1];
    if (next === undefined) throw new UsageError(`${flag} needs a value`);
    return next;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--voices') options.voices = true;
    else if (arg === '--version') options.version = true;
    else if (arg === '--stdout') options.stdout = true;
    else if (arg === '-w') options.wavFile = value(i++, arg);
    else if (arg === '-v') options.voice = value(i++, arg);
    else if (arg.startsWith('-v') && arg.length > 2) options.voice = arg.slice(2);
    else if (arg === '-b' || arg === '-b1' || arg === '-b=1') {
      const encoding = arg === '-b' ? value(i++, arg) : '1';
      if (encoding !== '1') throw new UsageError('only -b 1 (UTF-8) is supported');
    } else if (arg === '--') options.text.push(...args.splice(i + 1));
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else options.text.push(arg);
  }
  return options;
}

async function loadEngine(): Promise<{ wasm: EspeakModule; worker: EspeakWorker }> {
  const { default: createModule } = await import('@echogarden/espeak-ng-emscripten');
  // Emscripten's messages would otherwise go to stdout, where the WAV goes.
  const wasm = await createModule({ print: (line: string) => process.stderr.write(`${line}\n`) });
  return { wasm, worker: new wasm.eSpeakNGWorker() };
}

/** The languages field of a voice: (priority, tag) pairs, its own language first. */
function languagesOf(voice: EspeakVoiceStruct): { tag: string; priority: number }[] {
  const languages: { tag: string; priority: number }[] = [];
  for (let i = 0; ;) {
    const priority = voice.get_languages(i++);
    if (!priority) return languages;
    let tag = '';
    for (let byte = voice.get_languages(i++); byte; byte = voice.get_languages(i++)) tag += String.fromCharCode(byte);
    languages.push({ tag, priority });
  }
}

/** `espeak-ng --voices`: the same columns as espeak-ng's DisplayVoices, which EspeakProvider parses. */
export function voiceListing(worker: Pick<EspeakWorker, 'get_voices'>): string {
  const lines = ['Pty Language       Age/Gender VoiceName          File                 Other Languages'];
  for (let i = 0; ; i++) {
    const voice = worker.get_voices(i);
    if (!voice.ptr) break;
    const [own, ...others] = languagesOf(voice);
    if (!own) continue;
    const age = voice.get_age() ? String(voice.get_age()).padStart(3) : ' --';
    const gender = ['-', 'M', 'F'][voice.get_gender()] ?? '-';
    const name = voice.get_name().replace(/ /g, '_');
    lines.push(
      `${String(own.priority).padStart(2)}  ${own.tag.padEnd(15)}${age}/${gender}      ${name.padEnd(18)} ` +
        `${voice.get_identifier().padEnd(20)} ${others.map((l) => `(${l.tag} ${l.priority})`).join('')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Synthesizes the whole text and returns its samples (16-bit mono PCM at the engine's rate). */
function synthesize(wasm: EspeakModule, worker: EspeakWorker, text: string): Buffer {
  const pieces: Buffer[] = [];
  const callback = wasm.addFunction((samples, count) => {
    // Copied at once: the next buffer reuses the memory (and HEAP16 is replaced when the memory grows).
    if (count > 0) pieces.push(Buffer.from(wasm.HEAP16.buffer.slice(samples, samples + count * 2)));
    return 0; // 0: go on
  }, 'iiii');
  try {
    // The build reads its text as SSML, where the CLI reads it as it is: escaped, no text can change the voice or
    // ask for minutes of silence, and `a < b` is read aloud as the CLI reads it.
    worker.synth_(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'), callback);
  } finally {
    wasm.removeFunction(callback);
  }
  return Buffer.concat(pieces);
}

function wavFile(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function packageVersion(): string {
  // The package's own version: the WebAssembly build does not report eSpeak NG's.
  const manifest = require.resolve(`${PACKAGE}/package.json`, { paths: [__dirname] });
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

function write(stream: NodeJS.WriteStream, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => stream.write(data, (err) => (err ? reject(err) : resolve())));
}

async function main(): Promise<number> {
  const options = parseArguments(process.argv.slice(2));
  if (options.version) {
    const data = path.dirname(require.resolve(`${PACKAGE}/package.json`, { paths: [__dirname] }));
    await write(process.stdout, `eSpeak NG text-to-speech: ${packageVersion()}-wasm  Data at: ${data}\n`);
    return 0;
  }
  // The engine loads while the text arrives.
  const engine = loadEngine();
  const text = options.voices || options.text.length > 0 ? Promise.resolve(options.text.join(' ')) : readStdin();
  const { wasm, worker } = await engine;
  if (options.voices) {
    await write(process.stdout, voiceListing(worker));
    return 0;
  }
  if (!options.stdout && !options.wavFile) throw new UsageError('there is no audio device: use --stdout or -w <file>');
  // The voice (its phonemes and dictionary) loads before the text is awaited: a process started ahead has it ready.
  if (worker.set_voice(options.voice) !== 0) {
    process.stderr.write(`Error: voice '${options.voice}' not found\n`);
    return 1;
  }
  const sampleRate = worker.get_samplerate();
  const speech = synthesize(wasm, worker, await text);
  const pause = Buffer.alloc(speech.length > 0 ? Math.round(END_PAUSE_SECONDS * sampleRate) * 2 : 0);
  const wav = wavFile(Buffer.concat([speech, pause]), sampleRate);
  if (options.wavFile) writeFileSync(options.wavFile, wav);
  else await write(process.stdout, wav);
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`espeak-ng (wasm): ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
