/**
 * Seconds of audio in a recording, read from the file itself where its format says it cheaply: WAV (its data size
 * and byte rate), Ogg Opus or Vorbis (the last page's granule position) and MP3 (its frames). Undefined for the
 * others (WebM, MP4) and for a file it cannot read: the verbose transcription then takes the provider's figure.
 */
export function audioDuration(bytes: Buffer, contentType: string): number | undefined {
  try {
    const seconds =
      contentType === 'audio/wav'
        ? wavDuration(bytes)
        : contentType === 'audio/ogg'
          ? oggDuration(bytes)
          : contentType === 'audio/mpeg'
            ? mp3Duration(bytes)
            : undefined;
    return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0
      ? Math.round(seconds * 1000) / 1000
      : undefined;
  } catch {
    return undefined;
  }
}

function wavDuration(wav: Buffer): number | undefined {
  if (wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= wav.length;) {
    const id = wav.toString('latin1', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(offset + 16);
    if (id === 'data') {
      // A WAV written as it was made declares an unknown (huge) size: the data is what follows.
      const data = Math.min(size, wav.length - offset - 8);
      return byteRate > 0 ? data / byteRate : undefined;
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

function oggDuration(ogg: Buffer): number | undefined {
  if (ogg.toString('latin1', 0, 4) !== 'OggS') return undefined;
  // The first page's packet: its codec's identification header.
  const firstPacket = 27 + ogg[26]!;
  let rate: number;
  let preSkip = 0;
  if (ogg.toString('latin1', firstPacket, firstPacket + 8) === 'OpusHead') {
    rate = 48_000; // Opus granule positions always count 48 kHz samples
    preSkip = ogg.readUInt16LE(firstPacket + 10);
  } else if (ogg.toString('latin1', firstPacket + 1, firstPacket + 7) === 'vorbis') {
    rate = ogg.readUInt32LE(firstPacket + 12);
  } else return undefined;
  const last = ogg.lastIndexOf('OggS');
  if (last < 0 || last + 14 > ogg.length || rate <= 0) return undefined;
  const granule = Number(ogg.readBigInt64LE(last + 6));
  return granule < 0 ? undefined : Math.max(0, granule - preSkip) / rate;
}

/** kbit/s by bitrate index: MPEG-1 layers I, II, III, then MPEG-2 and 2.5 layer I, and layers II and III. */
const BITRATES = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44_100, 48_000, 32_000],
  2: [22_050, 24_000, 16_000],
  0: [11_025, 12_000, 8_000],
};

function mp3Duration(mp3: Buffer): number | undefined {
  let offset = 0;
  if (mp3.toString('latin1', 0, 3) === 'ID3' && mp3.length >= 10) {
    const size = ((mp3[6]! & 0x7f) << 21) | ((mp3[7]! & 0x7f) << 14) | ((mp3[8]! & 0x7f) << 7) | (mp3[9]! & 0x7f);
    offset = 10 + size + (mp3[5]! & 0x10 ? 10 : 0);
  }
  let seconds = 0;
  let frames = 0;
  while (offset + 4 <= mp3.length) {
    const header = mp3.readUInt32BE(offset);
    if ((header & 0xffe00000) >>> 0 !== 0xffe00000) {
      // Not a frame: stop at the end of the frames (tags follow), or skip a stray byte before the first one.
      if (frames > 0) break;
      offset++;
      continue;
    }
    const version = (header >>> 19) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const layer = 4 - ((header >>> 17) & 3); // 1, 2 or 3
    const bitrateIndex = (header >>> 12) & 15;
    const rateIndex = (header >>> 10) & 3;
    const padding = (header >>> 9) & 1;
    const rates = SAMPLE_RATES[version];
    if (!rates || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
      if (frames > 0) break;
      offset++;
      continue;
    }
    const sampleRate = rates[rateIndex]!;
    const v1 = version === 3;
    const table = v1
      ? [BITRATES.v1l1, BITRATES.v1l2, BITRATES.v1l3][layer - 1]!
      : layer === 1
        ? BITRATES.v2l1
        : BITRATES.v2l23;
    const bitrate = table[bitrateIndex]! * 1000;
    const samples = layer === 1 ? 384 : layer === 3 && !v1 ? 576 : 1152;
    const length =
      layer === 1
        ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4
        : Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
    if (length <= 4) break;
    seconds += samples / sampleRate;
    frames++;
    offset += length;
  }
  return frames > 0 ? seconds : undefined;
}
