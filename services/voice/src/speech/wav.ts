/** The PCM inside a WAV file and its sample rate (16-bit mono, as eSpeak NG writes it). */
export function parseWav(wav: Buffer): { pcm: Buffer; sampleRate: number } {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') sampleRate = wav.readUInt32LE(offset + 12);
    if (id === 'data') {
      // A WAV written to a pipe declares an unknown (huge) data size: the data is whatever follows.
      const pcm = wav.subarray(offset + 8, Math.min(wav.length, offset + 8 + size));
      return { pcm: pcm.length % 2 ? pcm.subarray(0, pcm.length - 1) : pcm, sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV file has no data');
}

/**
 * A WAV header for 16-bit mono PCM. Without `dataBytes` the sizes say "unknown" (0xFFFFFFFF), which players accept
 * for audio written as it is made.
 */
export function wavHeader(sampleRate: number, dataBytes?: number): Buffer {
  const header = Buffer.alloc(44);
  const unknown = dataBytes === undefined;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(unknown ? 0xffffffff : 36 + dataBytes, 4);
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
  header.writeUInt32LE(unknown ? 0xffffffff : dataBytes, 40);
  return header;
}
