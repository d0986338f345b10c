import type { PcmAudio } from '../speech/speechProvider';

/**
 * The 16-bit PCM inside a WAV file as mono: providers send WAV with headers of their own (extra chunks, stereo,
 * sizes left "unknown" when streamed), so this reads the format chunk rather than assuming eSpeak NG's layout.
 */
export function decodeWav(wav: Buffer): PcmAudio {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; codec: number } | undefined;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 24 <= wav.length) {
      format = {
        codec: wav.readUInt16LE(offset + 8),
        channels: wav.readUInt16LE(offset + 10),
        sampleRate: wav.readUInt32LE(offset + 12),
        bits: wav.readUInt16LE(offset + 22),
      };
    }
    if (id === 'data') {
      if (!format) throw new Error('WAV file has no format');
      // 1 is PCM; 0xFFFE (extensible) carries PCM too in what speech providers send.
      if ((format.codec !== 1 && format.codec !== 0xfffe) || format.bits !== 16)
        throw new Error('WAV audio is not 16-bit PCM');
      const data = wav.subarray(offset + 8, Math.min(wav.length, offset + 8 + size));
      return { pcm: toMono(data, format.channels), sampleRate: format.sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV file has no data');
}

/** Averages interleaved channels into one; drops a trailing partial frame. */
function toMono(data: Buffer, channels: number): Buffer {
  const frameBytes = 2 * Math.max(1, channels);
  const frames = Math.floor(data.length / frameBytes);
  if (channels <= 1) return data.subarray(0, frames * 2);
  const mono = Buffer.alloc(frames * 2);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += data.readInt16LE(f * frameBytes + c * 2);
    mono.writeInt16LE(Math.round(sum / channels), f * 2);
  }
  return mono;
}

/**
 * Converts 16-bit mono PCM to another sample rate by linear interpolation: enough for speech, and it lets voices of
 * engines with different rates (eSpeak NG 22,050 Hz, most clouds 24,000 Hz) share one encoder and one file.
 */
export function resamplePcm(audio: PcmAudio, targetRate: number): PcmAudio {
  if (audio.sampleRate === targetRate || audio.pcm.length < 4) return { pcm: audio.pcm, sampleRate: targetRate };
  const input = audio.pcm;
  const inFrames = Math.floor(input.length / 2);
  const outFrames = Math.max(1, Math.round((inFrames * targetRate) / audio.sampleRate));
  const output = Buffer.alloc(outFrames * 2);
  const step = audio.sampleRate / targetRate;
  for (let i = 0; i < outFrames; i++) {
    const position = i * step;
    const index = Math.min(inFrames - 1, Math.floor(position));
    const next = Math.min(inFrames - 1, index + 1);
    const fraction = position - index;
    const value = input.readInt16LE(index * 2) * (1 - fraction) + input.readInt16LE(next * 2) * fraction;
    output.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value))), i * 2);
  }
  return { pcm: output, sampleRate: targetRate };
}

/** Raw 16-bit little-endian PCM as a provider sends it, trimmed to whole samples. */
export const rawPcm = (bytes: Buffer, sampleRate: number): PcmAudio => ({
  pcm: bytes.subarray(0, bytes.length - (bytes.length % 2)),
  sampleRate,
});
