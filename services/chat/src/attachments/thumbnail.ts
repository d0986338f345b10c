// Runs in the attachment worker (see attachmentWorker.ts); the router only reads the constants.
import { LimitExceeded, type FileLimits } from './fileLimits';

/** A thumbnail's longest side, in pixels. */
export const THUMBNAIL_SIZE = 256;
export const THUMBNAIL_MEDIA_TYPE = 'image/webp';

type Sharp = typeof import('sharp');
let sharp: Promise<Sharp | undefined> | undefined;

/**
 * sharp ships prebuilt libvips binaries per platform; where none loads, images are kept without a thumbnail rather
 * than refused.
 */
function loadSharp(): Promise<Sharp | undefined> {
  return (sharp ??= import('sharp')
    .then((module) => {
      const library = ((module as { default?: Sharp }).default ?? module) as Sharp;
      // Each image is read once: libvips' cache of recent operations would only hold memory. One libvips thread per
      // image, so that the pool's size (threads) bounds the cores images take.
      library.cache(false);
      library.concurrency(1);
      return library;
    })
    .catch(() => undefined));
}

/** What reading an image gave: its size when sharp could read it, and a thumbnail when it could make one. */
export interface ImageFacts {
  width?: number;
  height?: number;
  thumbnail?: Uint8Array;
  /** Why there is no thumbnail (sharp missing, or an image it cannot read): for the log, never for the person. */
  problem?: string;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Reads an image's size from its header (sharp's metadata, which decodes no pixels) and refuses one over
 * `imagePixels` (LimitExceeded); then makes a small WebP preview (the first frame of an animation), with sharp's
 * `limitInputPixels` at the same bound. An image sharp cannot read, or sharp missing, gives no thumbnail: a thumbnail
 * is a convenience and never fails an upload.
 */
export async function readImage(bytes: Uint8Array, limits: Pick<FileLimits, 'imagePixels'>): Promise<ImageFacts> {
  const library = await loadSharp();
  if (!library) return { problem: 'sharp could not be loaded: images are stored without thumbnails' };
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header alone, whatever it declares (sharp's default pixel limit would call a huge image unreadable):
    // this is where the pixel limit is decided, with the numbers to tell the person.
    const metadata = await library(input, { limitInputPixels: false }).metadata();
    width = metadata.width;
    // An animation's frames are stacked: one frame's height is what a thumbnail decodes.
    height = metadata.pageHeight ?? metadata.height;
  } catch (err) {
    return { problem: `sharp could not read the image: ${messageOf(err)}` };
  }
  if (width !== undefined && height !== undefined && width * height > limits.imagePixels)
    throw new LimitExceeded({ limit: 'imagePixels', max: limits.imagePixels, found: width * height, width, height });
  try {
    const thumbnail = await library(input, { limitInputPixels: limits.imagePixels })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
    return { width, height, thumbnail };
  } catch (err) {
    return { width, height, problem: `no thumbnail for an image sharp could not read: ${messageOf(err)}` };
  }
}
