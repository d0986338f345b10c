import { protectMath, restoreMath, splitMath, type MathSpan } from './mathSegments';

/** The formulas found in `text`, as [tex, display]. */
const formulas = (text: string) => protectMath(text).math.map((m) => [m.tex, m.display]);

/** The text with each formula shown as ⟨tex⟩ (inline) or ⟦tex⟧ (display), as the renderer would place them. */
function marked(text: string): string {
  const { text: protectedText, math } = protectMath(text);
  return splitMath(protectedText, math)
    .map((piece) => (typeof piece === 'string' ? piece : piece.display ? `⟦${piece.tex}⟧` : `⟨${piece.tex}⟩`))
    .join('');
}

describe('maths delimiters', () => {
  it('finds inline $…$ and \\(…\\), and display $$…$$ and \\[…\\]', () => {
    expect(marked('Euler: $e^{i\\pi} + 1 = 0$, and \\(a_1 * b_2\\).')).toBe(
      'Euler: ⟨e^{i\\pi} + 1 = 0⟩, and ⟨a_1 * b_2⟩.',
    );
    expect(marked('Sum:\n\n$$\n\\sum_{k=1}^n k = \\frac{n(n+1)}{2}\n$$\n\nand \\[ x^2 \\] done')).toBe(
      'Sum:\n\n⟦\\sum_{k=1}^n k = \\frac{n(n+1)}{2}⟧\n\nand ⟦x^2⟧ done',
    );
  });

  it('leaves dollar amounts alone', () => {
    for (const text of [
      'It costs $5 and $10 for two.',
      'Between $5 and $10.',
      'Prices: $5-$10, or $20/$30 a month.',
      'I paid $ 5 and got $3 back',
      'A budget of $1,000,000 and $2.5M.',
      'US$20 or $30?',
      '$5',
      'Lone $ sign',
      'From $5 to 10 $ per unit',
      'Pay $5$10 later',
    ]) {
      expect({ text, math: formulas(text) }).toEqual({ text, math: [] });
      expect(marked(text)).toBe(text);
    }
  });

  it('needs no space inside the dollars and no digit right after the closing one', () => {
    expect(formulas('$ x$ and $x $ and $x$2')).toEqual([]);
    expect(formulas('$x$, $y$.')).toEqual([
      ['x', false],
      ['y', false],
    ]);
    // A dollar amount followed by maths: only the maths is maths.
    expect(marked('Pay $5 for $n$ items')).toBe('Pay $5 for ⟨n⟩ items');
  });

  it('never treats an escaped dollar as a delimiter', () => {
    expect(formulas('\\$5 and \\$10')).toEqual([]);
    expect(marked('$a \\$ b$')).toBe('⟨a \\$ b⟩');
    // An escaped backslash before a parenthesis is not \( either.
    expect(formulas('\\\\(not maths\\\\)')).toEqual([]);
  });

  it('does not look for maths in code spans or fenced code', () => {
    const text = 'Run `echo $HOME $PATH` and\n\n```sh\nexport A=$x$\necho $$ $$\n```\n\nthen $y$.';
    expect(marked(text)).toBe(text.replace('$y$', '⟨y⟩'));
    // Triple backticks within a line are a code span, not a fence: maths after it is still maths.
    expect(formulas('```js x``` then $y$')).toEqual([['y', false]]);
    // A formula does not reach into a code span.
    expect(marked('It costs $10; `$x$` is code')).toBe('It costs $10; `$x$` is code');
    // An unclosed fence (a reply still being written) is code to the end.
    expect(formulas('```\n$a$ and $$b$$')).toEqual([]);
    // A fence with more backticks closes only with as many.
    expect(formulas('````\n```\n$a$\n````\n$b$')).toEqual([['b', false]]);
  });

  it('does not let a formula run over a blank line (a new paragraph)', () => {
    expect(formulas('$a\n\nb$')).toEqual([]);
    expect(formulas('$$a\n\nb$$')).toEqual([]);
    expect(formulas('$a +\nb$')).toEqual([['a +\nb', false]]);
  });

  it('leaves a half-written formula (a reply still streaming) as text', () => {
    expect(marked('So $x^2 + ')).toBe('So $x^2 + ');
    expect(marked('$$\\int_0^1')).toBe('$$\\int_0^1');
    expect(marked('\\[ x')).toBe('\\[ x');
  });

  it('takes TeX out before markdown reads it: underscores, stars and pipes stay maths', () => {
    const { text, math } = protectMath('| a | b |\n|---|---|\n| $|x|$ | $a_1 * b_2$ |');
    expect(text).not.toContain('$');
    expect(math.map((m) => m.tex)).toEqual(['|x|', 'a_1 * b_2']);
  });

  it('restores formulas as written (inside code, link targets)', () => {
    const { text, math } = protectMath('See $x$ and $$y$$');
    expect(restoreMath(text, math)).toBe('See $x$ and $$y$$');
    expect(math.map((m: MathSpan) => m.source)).toEqual(['$x$', '$$y$$']);
  });

  it('drops private-use placeholder characters written in the reply itself', () => {
    const { text, math } = protectMath('a \uE0000\uE001 b');
    expect(text).toBe('a 0 b');
    expect(splitMath(text, math)).toEqual(['a 0 b']);
  });
});
