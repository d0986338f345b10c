import { byteUnitOf, fileOfUrl, formatBytes, percentDone } from './localModelProgress';

describe('the local model download’s progress', () => {
  it('is a whole percent of the known size, never more than 100, and unknown without a size', () => {
    expect(percentDone({ bytes: 0, totalBytes: 1_000 })).toBe(0);
    expect(percentDone({ bytes: 999, totalBytes: 1_000 })).toBe(99);
    expect(percentDone({ bytes: 1_000, totalBytes: 1_000 })).toBe(100);
    expect(percentDone({ bytes: 2_000, totalBytes: 1_000 })).toBe(100);
    expect(percentDone({ bytes: 500 })).toBeNull();
    expect(percentDone({ bytes: 500, totalBytes: 0 })).toBeNull();
  });

  it('shows sizes in the unit people read them in, never rounded up to the whole', () => {
    expect(byteUnitOf(512)).toEqual({ value: 512, unit: 'byte', digits: 0 });
    expect(byteUnitOf(1_500_000).unit).toBe('megabyte');
    expect(formatBytes(1_999_999_999, ['en-GB'])).toBe('1.99 GB');
    expect(formatBytes(2_000_000_000, ['en-GB'])).toBe('2 GB');
    expect(formatBytes(45_670_000, ['en-GB'])).toBe('45.6 MB');
    expect(formatBytes(456_700_000, ['en-GB'])).toBe('456 MB');
    expect(formatBytes(1_250_000_000, ['fr'])).toMatch(/^1,25\s?Go$/);
  });

  it('names the file a URL points at', () => {
    expect(fileOfUrl('https://example.com/models/qwen2.5-0.5b-instruct-q4_k_m.gguf?download=true')).toBe(
      'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    );
    expect(fileOfUrl('https://example.com/')).toBe('https://example.com/');
    expect(fileOfUrl('not a url')).toBe('not a url');
  });
});
