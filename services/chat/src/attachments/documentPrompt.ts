import type { TextPart } from './textExtraction';

/** A document as its prompt needs it: its name, how its parts are numbered, and their text. */
export interface PromptDocument {
  name: string;
  textUnit?: 'page' | 'section';
  textParts?: TextPart[];
  textTruncated?: boolean;
}

/** How a citation names a part: `[report.pdf, p. 3]`, `[notes.md, § 2]`. */
export const citationOf = (name: string, unit: 'page' | 'section' | undefined, n: number): string =>
  `[${name}, ${unit === 'page' ? 'p.' : '§'} ${n}]`;

/**
 * The documents of a message for the system prompt, within `budgetChars` characters in all (each document gets an
 * equal share; what one does not use goes to the next). Every part is labelled as it should be cited, and the model
 * is asked to cite what it takes from them. Empty when there are no documents.
 */
export function documentsPrompt(documents: PromptDocument[], budgetChars: number): string {
  if (documents.length === 0) return '';
  const blocks: string[] = [];
  let left = Math.max(0, budgetChars);
  for (const [index, doc] of documents.entries()) {
    const share = Math.floor(left / (documents.length - index));
    const parts = doc.textParts ?? [];
    const lines: string[] = [`<document name="${doc.name.replace(/"/g, "'")}">`];
    let used = 0;
    let cut = doc.textTruncated === true;
    if (parts.length === 0) lines.push('(No text could be read from this document: it may be a scanned image.)');
    for (const part of parts) {
      const label = citationOf(doc.name, doc.textUnit, part.n);
      const room = share - used - label.length - 1;
      if (room <= 0) {
        cut = true;
        break;
      }
      const text = part.text.length > room ? `${part.text.slice(0, room)}…` : part.text;
      if (text.length < part.text.length) cut = true;
      lines.push(label, text);
      used += label.length + 1 + text.length;
      if (text.length < part.text.length) break;
    }
    if (cut) lines.push('(The rest of this document is left out.)');
    lines.push('</document>');
    blocks.push(lines.join('\n'));
    left -= used;
  }
  return [
    'The user attached the documents below; each part is labelled with the document name and its page (p.) or ' +
      'section (§). When you use something from a document, cite it with that label, e.g. [report.pdf, p. 3]. ' +
      'If the answer is not in them, say so.',
    ...blocks,
  ].join('\n');
}
