/**
 * Maths in a reply's markdown, found before the markdown is parsed: TeX is full of characters markdown reads as
 * syntax (`_`, `*`, `\`, `|`), so each formula is taken out and replaced by a placeholder that markdown leaves
 * alone, and put back (as KaTeX, or as its source) where the placeholder lands in the rendered text.
 *
 * Delimiters, as common markdown-math rules (pandoc's `tex_math_dollars`, markdown-it-texmath) read them:
 * - `$…$` inline: the opening `$` is not followed by a space, the closing one is not preceded by a space nor
 *   followed by a digit, and the first `$` after the opening one must be the closing one. So "$5 and $10" and
 *   "between $5 and 10 $" stay text. An escaped `\$` is never a delimiter.
 * - `$$…$$` display, also over several lines.
 * - `\(…\)` inline and `\[…\]` display.
 * None of them spans a blank line (a paragraph break), and nothing inside code spans or fenced code is maths.
 */

/** One formula taken out of the text. */
export interface MathSpan {
  /** The TeX between the delimiters. */
  tex: string;
  /** Display maths (a block of its own) rather than inline. */
  display: boolean;
  /** The formula as written, delimiters included: shown while KaTeX loads and restored inside code. */
  source: string;
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
/** A placeholder: private-use characters, which markdown treats as plain text, around the formula's index. */
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

const placeholder = (index: number) => `${OPEN}${index}${CLOSE}`;

/** A fence line (``` or ~~~, possibly indented or quoted) and its marker; a backtick fence's info has no backtick. */
const FENCE = /^[ \t>]*(`{3,}(?![^\n]*`)|~{3,})/;
/** A line that only closes a fence. */
const FENCE_CLOSE = /^[ \t>]*(`{3,}|~{3,})[ \t]*\r?\n?$/;
const BLANK_LINE = /\n[ \t>]*\n/;
const BLANK_LINE_AT = /\n[ \t>]*\n/y;
/** Whether a blank line (a paragraph break) starts at `index`. */
const blankLineAt = (text: string, index: number) => {
  BLANK_LINE_AT.lastIndex = index;
  return BLANK_LINE_AT.test(text);
};
const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';

/** The markdown with each formula replaced by a placeholder, and the formulas in placeholder order. */
export function protectMath(markdown: string): { text: string; math: MathSpan[] } {
  // A reply never legitimately holds these private-use characters; dropping them keeps placeholders unambiguous.
  const input = markdown.replace(/[\uE000\uE001]/g, '');
  if (!/[$\\]/.test(input)) return { text: input, math: [] };
  const math: MathSpan[] = [];
  const out: string[] = [];
  let prose: string[] = [];
  const flushProse = () => {
    if (prose.length > 0) out.push(protectProse(prose.join(''), math));
    prose = [];
  };
  // Fenced code is copied as it is; the text between fences is scanned for maths.
  let fence: string | null = null;
  for (const line of input.split(/(?<=\n)/)) {
    if (fence === null) {
      const marker = FENCE.exec(line)?.[1];
      if (marker) {
        flushProse();
        fence = marker;
        out.push(line);
      } else prose.push(line);
    } else {
      out.push(line);
      const closing = FENCE_CLOSE.exec(line)?.[1];
      if (closing && closing[0] === fence[0] && closing.length >= fence.length) fence = null;
    }
  }
  flushProse();
  return { text: out.join(''), math };
}

/** Text outside fenced code: code spans copied as they are, formulas replaced. */
function protectProse(text: string, math: MathSpan[]): string {
  let out = '';
  let i = 0;
  const take = (end: number, tex: string, display: boolean) => {
    const source = text.slice(i, end);
    math.push({ tex, display, source });
    out += placeholder(math.length - 1);
    i = end;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '`') {
      // A code span: a run of backticks up to the next run of the same length (or, unclosed, just the run).
      const run = /^`+/.exec(text.slice(i))![0];
      const close = findBacktickRun(text, i + run.length, run.length);
      const end = close === -1 ? i + run.length : close + run.length;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === '(' || next === '[') {
        const closer = next === '(' ? '\\)' : '\\]';
        const end = findCloser(text, i + 2, closer);
        const tex = end === -1 ? '' : text.slice(i + 2, end);
        if (end !== -1 && tex.trim() && !BLANK_LINE.test(tex)) {
          take(end + 2, tex.trim(), next === '[');
          continue;
        }
      }
      // Any other backslash escapes the next character (`\$` is a dollar, `\\(` a backslash and a parenthesis).
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '$') {
      if (text[i + 1] === '$') {
        const end = findCloser(text, i + 2, '$$');
        const tex = end === -1 ? '' : text.slice(i + 2, end);
        if (end !== -1 && tex.trim() && !BLANK_LINE.test(tex)) {
          take(end + 2, tex.trim(), true);
          continue;
        }
        // No closing `$$`: both dollars stay text.
        out += '$$';
        i += 2;
        continue;
      }
      const end = inlineDollarEnd(text, i);
      if (end !== -1) {
        take(end + 1, text.slice(i + 1, end), false);
        continue;
      }
    }
    out += ch;
    i += 1;
  }
  return out;
}

/** Where the run of exactly `length` backticks after `from` starts, or -1. */
function findBacktickRun(text: string, from: number, length: number): number {
  const pattern = new RegExp(`(?<!\`)\`{${length}}(?!\`)`, 'g');
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/**
 * Where `closer` next occurs after `from`, skipping backslash-escaped characters, or -1. A backtick ends the
 * search: a formula does not reach into a code span (in "costs $10; `$x$`" the dollars are the code's).
 */
function findCloser(text: string, from: number, closer: string): number {
  for (let j = from; j < text.length; j++) {
    if (text.startsWith(closer, j)) return j;
    if (text[j] === '`') return -1;
    if (text[j] === '\\' && !closer.startsWith('\\')) j += 1;
  }
  return -1;
}

/** The index of the `$` closing an inline formula opened at `start`, or -1 when that `$` opens none. */
function inlineDollarEnd(text: string, start: number): number {
  if (isSpace(text[start + 1])) return -1;
  for (let j = start + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\') {
      j += 1;
      continue;
    }
    if (ch === '`' || (ch === '\n' && blankLineAt(text, j))) return -1;
    if (ch !== '$') continue;
    // The first dollar after the opening one closes the formula, or there is none.
    if (j === start + 1 || isSpace(text[j - 1]) || isDigit(text[j + 1])) return -1;
    return j;
  }
  return -1;
}

/** The text split into its plain pieces and the formulas of its placeholders. */
export function splitMath(text: string, math: readonly MathSpan[]): Array<string | MathSpan> {
  if (!text.includes(OPEN)) return [text];
  const pieces: Array<string | MathSpan> = [];
  let from = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const span = math[Number(match[1])];
    if (!span) continue;
    if (match.index > from) pieces.push(text.slice(from, match.index));
    pieces.push(span);
    from = match.index + match[0].length;
  }
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}

/** The text with each placeholder back to the formula as written (for code, link targets and the like). */
export function restoreMath(text: string, math: readonly MathSpan[]): string {
  if (!text.includes(OPEN)) return text;
  return text.replace(PLACEHOLDER, (whole, index: string) => math[Number(index)]?.source ?? whole);
}
