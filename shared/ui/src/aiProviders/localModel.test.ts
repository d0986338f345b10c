import { byteUnitOf, downloadProgress, downloadTarget, fileOfUrl, formatBytes, percentDone } from './localModel';

describe('the local model’s download', () => {
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
    expect(formatBytes(900, ['en'])).toBe('900 byte');
  });

  it('says how far it is in the frontend’s words, with its figures in the interface’s language', () => {
    const format = {
      bytes: (bytes: number) => `${bytes} B`,
      percent: (ratio: number) => `${Math.round(ratio * 100)}%`,
    };
    const t = (id: 'of' | 'soFar', values: Record<string, string>) =>
      id === 'of' ? `${values.done} / ${values.total} (${values.percent})` : `${values.done}…`;
    const messages = { known: 'of', unknown: 'soFar' } as const;
    expect(downloadProgress({ bytes: 250, totalBytes: 1_000 }, format, t, messages)).toEqual({
      percent: 25,
      text: '250 B / 1000 B (25%)',
    });
    expect(downloadProgress({ bytes: 250 }, format, t, messages)).toEqual({ percent: null, text: '250 B…' });
  });

  it('names the file a URL points at', () => {
    expect(fileOfUrl('https://example.com/models/qwen2.5-0.5b-instruct-q4_k_m.gguf?download=true')).toBe(
      'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    );
    expect(fileOfUrl('https://example.com/')).toBe('https://example.com/');
    expect(fileOfUrl('not a url')).toBe('not a url');
  });

  it('starts from the address typed when it is another http(s) one, else from where it comes from now', () => {
    const current = 'https://example.com/models/kasa.gguf';
    expect(downloadTarget(null, current)).toEqual({ ok: true });
    expect(downloadTarget(` ${current} `, current)).toEqual({ ok: true });
    expect(downloadTarget(' http://10.0.0.5/other.gguf ', current)).toEqual({
      ok: true,
      url: 'http://10.0.0.5/other.gguf',
    });
    expect(downloadTarget('ftp://example.com/kasa.gguf', current)).toEqual({ ok: false });
    expect(downloadTarget('', current)).toEqual({ ok: true });
  });
});
