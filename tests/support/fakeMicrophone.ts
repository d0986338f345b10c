import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Writes a WAV of `text` spoken by eSpeak NG followed by `silenceSeconds` of silence, for chromium's fake
 * microphone (`--use-file-for-fake-audio-capture`), which plays the file over and over: a person who asks, waits,
 * and asks again.
 */
export function spokenThenSilent(file: string, text: string, silenceSeconds: number): void {
  execFileSync('espeak-ng', ['-w', file, text]);
  const wav = fs.readFileSync(file);
  const sampleRate = wav.readUInt32LE(24);
  const silence = Buffer.alloc(Math.round(sampleRate * silenceSeconds) * 2);
  const out = Buffer.concat([wav, silence]);
  out.writeUInt32LE(out.length - 8, 4); // RIFF size
  out.writeUInt32LE(wav.readUInt32LE(40) + silence.length, 40); // data size (eSpeak writes a 44-byte header)
  fs.writeFileSync(file, out);
}

/** Chromium's switches for a fake microphone that plays `file`. */
export const fakeMicrophoneArgs = (file: string): string[] => [
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-audio-capture=${file}`,
];
