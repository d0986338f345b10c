/** Real files made in the test, small and exact: PNG, JPEG, PDF and DOCX (not a test file itself). */
import sharp from 'sharp';

export { makeDocx, makePdf, makePng } from '@kasa/test-kit';

/** A real JPEG, encoded by sharp (libvips). */
export function makeJpeg(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 60 } } })
    .jpeg()
    .toBuffer();
}
