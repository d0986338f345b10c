import yauzl from 'yauzl';
import { LimitExceeded, type FileLimits } from './fileLimits';

/**
 * The bytes a file in the archive (or the whole archive) unpacks to before its compression ratio counts: a small part
 * that compresses very well (a few hundred bytes of repeated XML) is harmless; what matters is a large one.
 */
export const RATIO_GRACE_BYTES = 100 * 1024;

export type ZipLimits = Pick<FileLimits, 'docxEntries' | 'docxUnpackedBytes' | 'docxCompressionRatio'>;

/** What a walk through an archive found, when it stayed within the limits. */
export interface ZipFacts {
  entries: number;
  unpackedBytes: number;
}

/**
 * Walks a zip archive (a DOCX) and inflates every file in it, counting the bytes it really unpacks to (not what its
 * headers say), and stops at the first limit passed: more entries than `docxEntries`, more than `docxUnpackedBytes`
 * in all, or a file or the whole archive unpacking to more than `docxCompressionRatio` times its packed size (past
 * RATIO_GRACE_BYTES). Nothing is kept: only then is the archive handed to a reader that holds it all in memory.
 * Throws LimitExceeded for a limit, another error for an archive that cannot be read.
 */
export async function checkZip(bytes: Buffer, limits: ZipLimits): Promise<ZipFacts> {
  // Entries one at a time (lazyEntries); yauzl checks each entry's real size against the size it declares.
  const zip = await yauzl.fromBufferPromise(bytes, {
    lazyEntries: true,
    validateEntrySizes: true,
    strictFileNames: false,
  });
  try {
    // The end-of-archive record says how many entries follow, and yauzl reads exactly that many.
    if (zip.entryCount > limits.docxEntries)
      throw new LimitExceeded({ limit: 'docxEntries', max: limits.docxEntries, found: zip.entryCount });
    const overRatio = (unpacked: number, packed: number) =>
      unpacked > RATIO_GRACE_BYTES && unpacked > limits.docxCompressionRatio * Math.max(packed, 1);
    let entries = 0;
    let unpackedBytes = 0;
    for await (const entry of zip.eachEntry()) {
      entries += 1;
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      let entryBytes = 0;
      try {
        for await (const chunk of stream) {
          entryBytes += (chunk as Buffer).length;
          unpackedBytes += (chunk as Buffer).length;
          if (unpackedBytes > limits.docxUnpackedBytes)
            throw new LimitExceeded({ limit: 'docxUnpackedBytes', max: limits.docxUnpackedBytes });
          if (overRatio(entryBytes, entry.compressedSize) || overRatio(unpackedBytes, bytes.length))
            throw new LimitExceeded({ limit: 'docxCompressionRatio', max: limits.docxCompressionRatio });
        }
      } finally {
        stream.destroy();
      }
    }
    return { entries, unpackedBytes };
  } finally {
    zip.close();
  }
}
