/** Longest caption on one screen; a longer sentence is cut at a clause break or between words. */
const MAX_CAPTION_CHARS = 160;
/** Characters per caption line at the renderer's font size on a 1280-pixel-wide frame. */
const LINE_CHARS = 42;

/** A caption and when it is on screen, in seconds. */
export interface TimedCaption {
  text: string;
  start: number;
  end: number;
}

function safeLocale(language: string): string {
  try {
    return Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/**
 * The prompt as captions: its sentences (Intl.Segmenter knows the sentence rules of many languages), each at most
 * MAX_CAPTION_CHARS long. Each caption is also what is spoken while it shows.
 */
export function splitIntoCaptions(prompt: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(safeLocale(language), { granularity: 'sentence' });
  return [...segmenter.segment(prompt)]
    .map((s) => s.segment.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .flatMap((sentence) => cut(sentence, MAX_CAPTION_CHARS));
}

function cut(sentence: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const clause = Math.max(...[',', ';', ':', '،', '，', '、'].map((mark) => window.lastIndexOf(mark)));
    const space = window.lastIndexOf(' ');
    const at = clause > max / 3 ? clause + 1 : space > max / 3 ? space : max;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** Breaks a caption into lines for drawing (the drawing filter does not wrap by itself). */
export function wrapLines(text: string, width = LINE_CHARS): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

function vttTime(seconds: number): string {
  return srtTime(seconds).replace(',', '.');
}

/**
 * The captions as WebVTT, for a <track> element (browsers do not show the MP4's own subtitle track). A cue's text
 * cannot hold a blank line or `-->`, and `<` and `&` are escaped so that the text is shown as written.
 */
export function toVtt(captions: TimedCaption[]): string {
  const cue = (c: TimedCaption) =>
    c.text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\n\s*\n/g, '\n');
  return `WEBVTT\n\n${captions.map((c, i) => `${i + 1}\n${vttTime(c.start)} --> ${vttTime(c.end)}\n${cue(c)}\n`).join('\n')}`;
}

/** The captions as a SubRip (SRT) file, the subtitle track of the video. */
export function toSrt(captions: TimedCaption[]): string {
  return captions.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${c.text}\n`).join('\n');
}
