import type { LocalModelStatus } from '@kasa/contracts';

/** How often the console asks how a download is going. */
export const DOWNLOAD_POLL_MS = 1_000;

/** The download's whole percent done, 0 to 100, or null while the file's size is unknown. */
export function percentDone(status: Pick<LocalModelStatus, 'bytes' | 'totalBytes'>): number | null {
  const { bytes, totalBytes } = status;
  if (!totalBytes || totalBytes <= 0) return null;
  return Math.min(100, Math.max(0, Math.floor((bytes / totalBytes) * 100)));
}

type ByteUnit = 'byte' | 'kilobyte' | 'megabyte' | 'gigabyte';

/** A size in the unit people read it in (decimal: 1 GB is 10⁹ bytes), with the decimals worth showing. */
export function byteUnitOf(bytes: number): { value: number; unit: ByteUnit; digits: number } {
  if (bytes >= 1e9) return { value: bytes / 1e9, unit: 'gigabyte', digits: 2 };
  if (bytes >= 1e6) return { value: bytes / 1e6, unit: 'megabyte', digits: bytes >= 1e8 ? 0 : 1 };
  if (bytes >= 1e3) return { value: bytes / 1e3, unit: 'kilobyte', digits: 0 };
  return { value: Math.max(0, bytes), unit: 'byte', digits: 0 };
}

/** A size for people in `locales` (`1.25 GB`, `1,25 Go`), with Intl's short unit names. */
export function formatBytes(bytes: number, locales: string[]): string {
  const { value, unit, digits } = byteUnitOf(bytes);
  // Truncated rather than rounded, so that a download never shows its whole size before it is complete.
  const factor = 10 ** digits;
  const shown = Math.floor(value * factor) / factor;
  return new Intl.NumberFormat(locales, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(shown);
}

/** The file a URL names (its last path segment, decoded), for saying what is downloaded; the URL when it has none. */
export function fileOfUrl(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : url;
  } catch {
    return url;
  }
}
