import { createLogger } from '@kasa/service-kit';
import { AudioEncoders, PCM_OUTPUT_RATE, type EncodingFormat, type EncodingJob } from '../speech/audioEncoder';
import { findFfmpeg } from '../speech/engines';
import { audioDuration } from './audioDuration';

/**
 * The formats of POST /v1/audio/speech as the encoders make them, with the real ffmpeg: each one's bytes are what
 * its Content-Type says, the speed changes the length, and a server without ffmpeg offers only what it can make.
 */
const logger = createLogger({ service: 'speech-formats-test', version: 'test', level: 'silent' });
const RATE = 22_050;
/** One second of a 440 Hz tone at the engines' rate. */
const tone = Buffer.alloc(RATE * 2);
for (let i = 0; i < RATE; i++) tone.writeInt16LE(Math.round(Math.sin((i * 2 * Math.PI * 440) / RATE) * 8_000), i * 2);

async function encode(job: EncodingJob): Promise<Buffer> {
  const chunks: Buffer[] = [];
  job.output.on('data', (chunk: Buffer) => chunks.push(chunk));
  await job.write(tone);
  await job.end();
  if (!job.output.readableEnded) await new Promise((resolve) => job.output.once('end', resolve));
  return Buffer.concat(chunks);
}

let withFfmpeg: AudioEncoders;
let withoutFfmpeg: AudioEncoders;

beforeAll(async () => {
  const ffmpeg = await findFfmpeg({ bin: process.env.VOICE_FFMPEG_BIN ?? 'ffmpeg', usePackaged: true, logger });
  withFfmpeg = await AudioEncoders.create({ ffmpeg, format: 'mp3', sampleRate: RATE, usePackaged: true, logger });
  withoutFfmpeg = await AudioEncoders.create({
    ffmpeg: undefined,
    format: 'mp3',
    sampleRate: RATE,
    usePackaged: true,
    logger,
  });
}, 60_000);
afterAll(() => {
  withFfmpeg?.close();
  withoutFfmpeg?.close();
});

describe('the formats of the OpenAI-compatible speech route', () => {
  const ascii = (bytes: Buffer, from: number, to: number) => bytes.toString('latin1', from, to);

  it.each<[EncodingFormat, string, (bytes: Buffer) => boolean]>([
    ['mp3', 'audio/mpeg', (b) => ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0)],
    ['ogg', 'audio/ogg', (b) => ascii(b, 0, 4) === 'OggS' && ascii(b, 28, 36) === 'OpusHead'],
    ['aac', 'audio/aac', (b) => b[0] === 0xff && (b[1]! & 0xf6) === 0xf0],
    ['flac', 'audio/flac', (b) => ascii(b, 0, 4) === 'fLaC'],
    ['wav', 'audio/wav', (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE'],
  ])('makes %s (%s) with ffmpeg', async (format, contentType, looksRight) => {
    expect(withFfmpeg.supports(format)).toBe(true);
    expect(withFfmpeg.contentTypeOf(format)).toBe(contentType);
    const bytes = await encode(withFfmpeg.start({ format }));
    expect(bytes.length).toBeGreaterThan(500);
    expect(looksRight(bytes)).toBe(true);
  });

  it('makes raw PCM at 24 kHz, as OpenAI’s pcm is', async () => {
    const bytes = await encode(withFfmpeg.start({ format: 'pcm' }));
    // One second of audio, resampled: 24,000 samples of 2 bytes (give or take the resampler's edges).
    expect(Math.abs(bytes.length - PCM_OUTPUT_RATE * 2)).toBeLessThan(400);
  });

  it('reads faster or slower: speed 2 halves the audio, speed 0.25 makes it four times as long', async () => {
    const normal = audioDuration(await encode(withFfmpeg.start({ format: 'wav' })), 'audio/wav')!;
    const fast = audioDuration(await encode(withFfmpeg.start({ format: 'wav', speed: 2 })), 'audio/wav')!;
    const slow = audioDuration(await encode(withFfmpeg.start({ format: 'mp3', speed: 0.25 })), 'audio/mpeg')!;
    expect(normal).toBeCloseTo(1, 1);
    expect(fast).toBeCloseTo(0.5, 1);
    expect(slow).toBeGreaterThan(3.8);
    expect(slow).toBeLessThan(4.2);
    const opus = audioDuration(await encode(withFfmpeg.start({ format: 'ogg', speed: 1.25 })), 'audio/ogg')!;
    expect(opus).toBeCloseTo(0.8, 1);
  });

  it('offers only what it can make without ffmpeg: MP3 by lamejs where it loads, and WAV, at their own speed', async () => {
    // lamejs is loaded with import(), which this test runner may not offer: then the configured MP3 falls back to WAV.
    expect(withoutFfmpeg.formats()).toEqual(withoutFfmpeg.name === 'lamejs' ? ['mp3', 'wav'] : ['wav']);
    expect(withoutFfmpeg.formats(1.5)).toEqual([]);
    expect(withoutFfmpeg.supports('ogg')).toBe(false);
    expect(() => withoutFfmpeg.start({ format: 'flac' })).toThrow(/cannot be made here/);
    const wav = await encode(withoutFfmpeg.start({ format: 'wav' }));
    expect(audioDuration(wav, 'audio/wav')).toBeCloseTo(1, 2);
    expect(withFfmpeg.formats(2)).toEqual(['mp3', 'ogg', 'wav', 'aac', 'flac', 'pcm']);
  });
});
