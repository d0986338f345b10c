import { makeDocx } from '@kasa/test-kit';
import JSZip from 'jszip';
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { LimitExceeded, type Refusal } from './fileLimits';
import { checkZip, RATIO_GRACE_BYTES, type ZipLimits } from './zipLimits';

const MB = 1024 * 1024;
const LIMITS: ZipLimits = { docxEntries: 1_000, docxUnpackedBytes: 50 * MB, docxCompressionRatio: 100 };

/** A zip made by jszip (deflated at level 9) of `files`, without entries for their folders. */
const zipOf = (files: Record<string, string | Buffer>): Promise<Buffer> => {
  const zip = new JSZip();
  for (const [name, data] of Object.entries(files)) zip.file(name, data, { createFolders: false });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
};

/** The refusal checkZip threw, or a failure naming what it did instead. */
async function refusalOf(bytes: Buffer, limits: ZipLimits): Promise<Refusal> {
  const outcome = await checkZip(bytes, limits).then(
    (facts) => new Error(`accepted: ${JSON.stringify(facts)}`),
    (err: unknown) => err,
  );
  if (outcome instanceof LimitExceeded) return outcome.refusal;
  throw outcome;
}

/**
 * A zip whose one file unpacks to `unpackedBytes` zero bytes from about a thousandth of that: one deflated megabyte
 * of zeros (byte-aligned, not final) repeated, then an empty final block. Written out by hand (jszip would need the
 * gigabyte in memory to make it); yauzl does not check CRC-32, so none is computed for the whole.
 */
function zeroBomb(unpackedBytes: number, name = 'word/document.xml'): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(MB), { finishFlush: constants.Z_SYNC_FLUSH });
  const repeats = Math.ceil(unpackedBytes / MB);
  const data = Buffer.concat([...Array.from({ length: repeats }, () => chunk), Buffer.from([0x03, 0x00])]);
  const fileName = Buffer.from(name);
  const fields = Buffer.alloc(26);
  fields.writeUInt16LE(20, 0); // version needed
  fields.writeUInt16LE(8, 4); // deflated
  fields.writeUInt32LE(0, 10); // CRC-32 (not checked)
  fields.writeUInt32LE(data.length, 14);
  fields.writeUInt32LE(Math.min(repeats * MB, 0xfffffffe), 18);
  fields.writeUInt16LE(fileName.length, 22);
  const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), fields, fileName, data]);
  const central = Buffer.concat([
    Buffer.from([0x50, 0x4b, 0x01, 0x02, 20, 0]),
    fields,
    Buffer.alloc(14), // no comment, disk 0, no attributes, local header at 0
    fileName,
  ]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(local.length, 16);
  return Buffer.concat([local, central, end]);
}

describe('checkZip', () => {
  it('lets a real Word document through, counting its files and what they unpack to', async () => {
    const docx = makeDocx([{ heading: 'Markets', paragraphs: ['Kejetia is one of the largest markets.'] }]);
    const facts = await checkZip(docx, LIMITS);
    expect(facts.entries).toBe(5);
    expect(facts.unpackedBytes).toBeGreaterThan(1000);
    expect(facts.unpackedBytes).toBeLessThan(docx.length);
  });

  it('refuses a document.xml of a few MB of repeated text packed into a few KB (compression ratio)', async () => {
    const xml = `<w:document><w:body>${'<w:p><w:r><w:t>Akwaaba! </w:t></w:r></w:p>'.repeat(100_000)}</w:body></w:document>`;
    const bomb = await zipOf({ '[Content_Types].xml': '<Types/>', 'word/document.xml': xml });
    expect(xml.length).toBeGreaterThan(4 * MB);
    expect(bomb.length).toBeLessThan(40 * 1024);
    expect(await refusalOf(bomb, LIMITS)).toEqual({ limit: 'docxCompressionRatio', max: 100 });
  });

  it('refuses an archive that unpacks past the byte limit, whatever its ratio', async () => {
    // Random bytes do not compress, as pictures barely do.
    const archive = await zipOf({ 'word/media/image1.bin': randomBytes(3 * MB) });
    expect(await refusalOf(archive, { ...LIMITS, docxUnpackedBytes: 2 * MB })).toEqual({
      limit: 'docxUnpackedBytes',
      max: 2 * MB,
    });
    await expect(checkZip(archive, { ...LIMITS, docxUnpackedBytes: 4 * MB })).resolves.toMatchObject({
      unpackedBytes: 3 * MB,
    });
  });

  it('stops inflating at the limit: a gigabyte of zeros is refused without being unpacked', async () => {
    const bomb = zeroBomb(1024 * MB);
    expect(bomb.length).toBeLessThan(2 * MB);
    const started = process.memoryUsage().arrayBuffers;
    // Ratio out of the way: the byte limit is what stops it, after about 10 MB of the 1,024.
    expect(await refusalOf(bomb, { ...LIMITS, docxUnpackedBytes: 10 * MB, docxCompressionRatio: 1e9 })).toEqual({
      limit: 'docxUnpackedBytes',
      max: 10 * MB,
    });
    expect(process.memoryUsage().arrayBuffers - started).toBeLessThan(100 * MB);
    // With the default limits, the 50 MB comes first: a ratio is counted against the file's whole packed size.
    expect(await refusalOf(bomb, LIMITS)).toEqual({ limit: 'docxUnpackedBytes', max: 50 * MB });
    // A smaller bomb (20 MB from about 20 KB) stops once 100 times its packed size has come out.
    expect(await refusalOf(zeroBomb(20 * MB), LIMITS)).toEqual({ limit: 'docxCompressionRatio', max: 100 });
  });

  it('lets a small file compress as well as it likes: the ratio counts past the first 100 KB', async () => {
    const small = 'x'.repeat(RATIO_GRACE_BYTES - 1);
    await expect(checkZip(await zipOf({ 'word/document.xml': small }), LIMITS)).resolves.toMatchObject({ entries: 1 });
  });

  it('refuses more entries than allowed, from the count the archive declares', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`word/part${i}.xml`, `<p>${i}</p>`]));
    expect(await refusalOf(await zipOf(files), { ...LIMITS, docxEntries: 10 })).toEqual({
      limit: 'docxEntries',
      max: 10,
      found: 12,
    });
    await expect(checkZip(await zipOf(files), { ...LIMITS, docxEntries: 12 })).resolves.toMatchObject({ entries: 12 });
  });

  it('fails (not a limit) on an archive whose file is larger than its header says', async () => {
    const bomb = zeroBomb(3 * MB);
    // The central directory now claims 1 MB: yauzl finds 3 MB and calls the archive damaged.
    const central = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(MB, central + 6 + 18);
    const outcome = await checkZip(bomb, { ...LIMITS, docxCompressionRatio: 1e9 }).catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(LimitExceeded);
  });

  it('fails (not a limit) on bytes that are not a zip archive', async () => {
    const outcome = await checkZip(Buffer.from('PK\u0003\u0004 but not really'), LIMITS).catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(LimitExceeded);
  });
});
