/**
 * A sentence ends at terminal punctuation (Latin, CJK, Arabic, Devanagari, Ethiopic), with any closing quotes or
 * brackets, followed by white space; a line break ends a heading, a list item or a paragraph. "3.5" or "kasa.ai"
 * do not end one: no space follows the point.
 */
const SENTENCE_END = /[.!?…。！？؟।።]+["'”’)\]]*\s+|\n/g;

/**
 * The words of a reply that is still being written, handed out whole sentences at a time: read-aloud synthesizes
 * each piece as soon as it is complete instead of waiting for the end of the reply. Text inside an unclosed code
 * block is held back (it is not read aloud, and a "." in code ends nothing).
 */
export class SpokenQueue {
  private text = '';
  /** How much of `text` has been handed out. */
  private taken = 0;
  private finished = false;

  /** The whole reply so far (each update replaces the last; a reply only grows). */
  update(text: string): void {
    if (this.finished || !text.startsWith(this.text.slice(0, this.taken))) return;
    this.text = text;
  }

  /** The reply is complete: its last words count as a sentence even without a full stop. */
  finish(text?: string): void {
    if (text !== undefined) this.update(text);
    this.finished = true;
  }

  get done(): boolean {
    return this.finished && this.taken >= this.text.length;
  }

  /**
   * The next whole sentences written and not yet taken: `firstOnly` takes a single sentence (the quickest to start
   * speaking); otherwise as many as fit in `limit` characters (at least one). An empty string while no sentence is
   * complete yet; the rest of the text once the reply is finished.
   */
  take({ limit, firstOnly = false }: { limit: number; firstOnly?: boolean }): string {
    const rest = this.text.slice(this.taken);
    let end = 0;
    SENTENCE_END.lastIndex = 0;
    for (let match = SENTENCE_END.exec(rest); match; match = SENTENCE_END.exec(rest)) {
      const boundary = match.index + match[0].length;
      if (insideCodeBlock(this.text.slice(0, this.taken + boundary))) continue;
      if (end > 0 && boundary > limit) break;
      end = boundary;
      if (firstOnly && rest.slice(0, end).trim()) break;
    }
    if (this.finished && (end === 0 || (!firstOnly && rest.length <= limit))) end = rest.length;
    const piece = rest.slice(0, end);
    this.taken += end;
    return piece;
  }
}

/** Whether the text ends inside a fenced code block (an odd number of fences). */
function insideCodeBlock(text: string): boolean {
  return (text.match(/```/g)?.length ?? 0) % 2 === 1;
}
