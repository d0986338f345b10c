import type { Logger } from '@kasa/service-kit';

/** A thumbnail's longest side, in pixels. */
export const THUMBNAIL_SIZE = 256;
export const THUMBNAIL_MEDIA_TYPE = 'image/webp';

type Sharp = typeof import('sharp');
let sharp: Promise<Sharp | undefined> | undefined;

/**
 * sharp ships prebuilt libvips binaries per platform; where none loads, images are kept without a thumbnail rather
 * than refused (logged once).
 */
function loadSharp(logger: Logger): Promise<Sharp | undefined> {
  return (sharp ??= import('sharp')
    .then((module) => ((module as { default?: Sharp }).default ?? module) as Sharp)
    .catch((err: unknown) => {
      logger.warn({ err }, 'sharp could not be loaded: images are stored without thumbnails');
      return undefined;
    }));
}

/**
 * A small WebP preview of an image (the first frame of an animation), or undefined when sharp is missing or cannot
 * read the image: a thumbnail is a convenience and never fails an upload.
 */
export async function makeThumbnail(bytes: Uint8Array, logger: Logger): Promise<Buffer | undefined> {
  const library = await loadSharp(logger);
  if (!library) return undefined;
  try {
    return await library(bytes, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
  } catch (err) {
    logger.debug({ err }, 'no thumbnail for an image sharp could not read');
    return undefined;
  }
}
