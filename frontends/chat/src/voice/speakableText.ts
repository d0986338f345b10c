/** The longest text the voice service reads in one request (shared/contracts voice.ts). */
export const MAX_SPOKEN_LENGTH = 5_000;

/**
 * A reply's markdown as the words to read aloud: code blocks are left out (read aloud they are noise), links keep
 * their text, and emphasis, headings, list and quote markers go. Longer replies are cut at the last sentence that
 * fits the voice service's limit.
 */
export function speakableText(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*(?:[-*_]\s*){3,}$/gm, ' ')
    .replace(/(^|[^\w*~])(\*\*|__|\*|_|~~)(?=\S)([\s\S]*?\S)\2(?![\w*~])/gm, '$1$3')
    .replace(/\|/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  if (text.length <= MAX_SPOKEN_LENGTH) return text;
  const head = text.slice(0, MAX_SPOKEN_LENGTH);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'), head.lastIndexOf('? '), head.lastIndexOf('! '));
  return (end > MAX_SPOKEN_LENGTH / 2 ? head.slice(0, end + 1) : head).trim();
}
