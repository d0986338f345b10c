import type { LocalModelStatus } from '@kasa/contracts';
import { isHttpUrl } from './providerDraft';

// The local model (a model file the chat service runs) as the forms show it: its download's progress in words and
// figures, the file it is, and the address a download starts from.

/** How often a form asks how a download is going. */
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

/**
 * What Download asks for, from the address in the form (`typed`, null while untouched) and the one the download
 * comes from now (`current`): `url` undefined keeps the current address; `ok` false when the typed one is not http(s).
 */
export function downloadTarget(typed: string | null, current: string): { ok: true; url?: string } | { ok: false } {
  const url = (typed ?? current).trim();
  if (url && !isHttpUrl(url)) return { ok: false };
  return url && url !== current ? { ok: true, url } : { ok: true };
}

/** The message ids, in the frontend's catalogue, that say how far a download is. */
export interface ProgressMessages<Id extends string> {
  /** With a known size; placeholders `{done}`, `{total}` and `{percent}`. */
  known: Id;
  /** While the size is unknown; placeholder `{done}`. */
  unknown: Id;
}

/**
 * A download's progress: its whole percent done (null while the size is unknown) and the same in words, read with
 * `t` from the frontend's `messages`, sizes and the percent written by `format` in the interface's language.
 */
export function downloadProgress<Id extends string>(
  status: Pick<LocalModelStatus, 'bytes' | 'totalBytes'>,
  format: { bytes: (bytes: number) => string; percent: (ratio: number) => string },
  t: (id: Id, values: Record<string, string>) => string,
  messages: ProgressMessages<Id>,
): { percent: number | null; text: string } {
  const percent = percentDone(status);
  const done = format.bytes(status.bytes);
  const text =
    status.totalBytes && percent !== null
      ? t(messages.known, { done, total: format.bytes(status.totalBytes), percent: format.percent(percent / 100) })
      : t(messages.unknown, { done });
  return { percent, text };
}
