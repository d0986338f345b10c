import { makePng } from '@kasa/test-kit';
import sharp from 'sharp';
import { crc32, deflateSync } from 'node:zlib';
import { LimitExceeded, type Refusal } from './fileLimits';
import { readImage, THUMBNAIL_SIZE } from './thumbnail';

const LIMITS = { imagePixels: 40_000_000 };

/**
 * A PNG that declares `width`×`height` pixels in its header but carries one row of data: a few dozen bytes that would
 * ask a decoder for gigabytes.
 */
function declaredPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1 + width))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function refusalOf(reading: Promise<unknown>): Promise<Refusal> {
  const outcome = await reading.then(
    () => new Error('the image was read'),
    (err: unknown) => err,
  );
  if (outcome instanceof LimitExceeded) return outcome.refusal;
  throw outcome;
}

describe('readImage', () => {
  it('reads an image’s size and makes a WebP thumbnail at most 256 pixels a side', async () => {
    const image = await readImage(makePng(600, 300), LIMITS);
    expect(image).toMatchObject({ width: 600, height: 300 });
    const thumbnail = await sharp(image.thumbnail!).metadata();
    expect(thumbnail).toMatchObject({ format: 'webp', width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE / 2 });
  });

  it('refuses an image whose header declares more pixels than allowed, before decoding any', async () => {
    const png = declaredPng(100_000, 100_000);
    expect(png.length).toBeLessThan(1_000);
    expect(await refusalOf(readImage(png, LIMITS))).toEqual({
      limit: 'imagePixels',
      max: 40_000_000,
      found: 10_000_000_000,
      width: 100_000,
      height: 100_000,
    });
  });

  it('counts width × height against the limit, exactly', async () => {
    expect(await refusalOf(readImage(makePng(50, 41), { imagePixels: 2_000 }))).toMatchObject({ found: 2_050 });
    await expect(readImage(makePng(50, 40), { imagePixels: 2_000 })).resolves.toMatchObject({ width: 50 });
  });

  it('keeps an image sharp cannot read without a thumbnail, and says why (for the log)', async () => {
    const damaged = Buffer.concat([makePng(40, 30).subarray(0, 40), Buffer.alloc(20)]);
    const image = await readImage(damaged, LIMITS);
    expect(image.thumbnail).toBeUndefined();
    expect(image.problem).toMatch(/sharp could not read/);
  });
});
