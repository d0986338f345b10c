import { AttachmentsBusyError, describeRefusal, FileTooComplexError } from './processingErrors';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('the answers to a file past a processing limit', () => {
  it('names each limit in words a person understands', () => {
    expect(describeRefusal({ limit: 'docxUnpackedBytes', max: 50 * 1024 * 1024 }, DOCX)).toBe(
      'This Word document unpacks to more than 50 MB; Word documents may unpack to at most 50 MB.',
    );
    expect(describeRefusal({ limit: 'docxEntries', max: 1_000, found: 1_200 }, DOCX)).toBe(
      'This Word document holds more than 1,000 files inside; Word documents may hold at most 1,000.',
    );
    expect(describeRefusal({ limit: 'docxCompressionRatio', max: 100 }, DOCX)).toMatch(
      /^This Word document unpacks to more than 100 times its packed size, as zip bombs do; .* at most 100 times/,
    );
    expect(describeRefusal({ limit: 'pdfPages', max: 1_000, found: 2_000 }, 'application/pdf')).toBe(
      'This PDF has 2,000 pages; PDFs may have at most 1,000 pages.',
    );
    expect(
      describeRefusal(
        { limit: 'imagePixels', max: 40_000_000, found: 10_000_000_000, width: 100_000, height: 100_000 },
        'image/png',
      ),
    ).toBe('This image is 100,000 × 100,000 pixels (10,000 megapixels); images may have at most 40 megapixels.');
    expect(describeRefusal({ limit: 'jobMs', max: 15_000 }, 'application/pdf')).toMatch(
      /^Reading this PDF took longer than 15 seconds, the most one file may take\. It was not stored/,
    );
    expect(describeRefusal({ limit: 'workerMemoryMb', max: 256 }, 'text/plain')).toMatch(
      /^Reading this document needed more than 256 MB of memory, the most one file may use\./,
    );
  });

  it('is a 422 file_too_complex whose details carry the limit and its value', () => {
    const err = new FileTooComplexError({ limit: 'pdfPages', max: 1_000, found: 1_001 }, 'application/pdf');
    expect(err).toMatchObject({
      status: 422,
      code: 'file_too_complex',
      details: { limit: 'pdfPages', max: 1_000, found: 1_001 },
    });
    expect(new FileTooComplexError({ limit: 'jobMs', max: 15_000 }, DOCX).details).toEqual({
      limit: 'jobMs',
      max: 15_000,
    });
  });

  it('says the pool is busy with a 503 and how long to wait', () => {
    expect(new AttachmentsBusyError()).toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      retryAfterSeconds: 5,
      message: 'Too many files are being read right now. Please try again in 5 seconds.',
    });
  });
});
