import { grammarFor, grammarLoaded, highlight, loadGrammar, parseTokens, type CodeToken } from './highlight';

/** The text of tokens, without their classes. */
const textOf = (tokens: readonly CodeToken[]): string =>
  tokens.map((token) => (typeof token === 'string' ? token : textOf(token.children))).join('');

/** The tokens with their classes, flattened: [className, text]. */
const classed = (tokens: readonly CodeToken[]): Array<[string, string]> =>
  tokens.flatMap((token) =>
    typeof token === 'string'
      ? []
      : [[token.className, textOf(token.children)] as [string, string], ...classed(token.children)],
  );

describe('syntax highlighting', () => {
  it('knows languages by their usual fence names, and nothing else', () => {
    expect(grammarFor('ts')).toBe('typescript');
    expect(grammarFor('TypeScript')).toBe('typescript');
    expect(grammarFor('tsx')).toBe('typescript');
    expect(grammarFor('py')).toBe('python');
    expect(grammarFor('language-js')).toBe('javascript');
    expect(grammarFor('sh')).toBe('bash');
    expect(grammarFor('html')).toBe('xml');
    expect(grammarFor('klingon')).toBeUndefined();
    expect(grammarFor('')).toBeUndefined();
    expect(grammarFor(undefined)).toBeUndefined();
  });

  it('highlights only once the grammar has loaded, into tokens that keep the code exactly', async () => {
    const code = 'const total: number = 1 < 2 && "<b>it\'s</b>"; // done\nclass Cart<T> {}';
    expect(highlight(code, 'typescript')).toBeNull();
    await loadGrammar('typescript');
    expect(grammarLoaded('typescript')).toBe(true);
    const tokens = highlight(code, 'typescript')!;
    expect(textOf(tokens)).toBe(code);
    expect(classed(tokens)).toEqual(
      expect.arrayContaining([
        ['hljs-keyword', 'const'],
        ['hljs-built_in', 'number'],
        ['hljs-number', '1'],
        ['hljs-string', '"<b>it\'s</b>"'],
        ['hljs-comment', '// done'],
        ['hljs-title class_', 'Cart'],
      ]),
    );
    // Another language is still plain until its own grammar arrives.
    expect(highlight('print(1)', 'python')).toBeNull();
  });

  it('reads highlight.js markup into nested tokens and decodes its entities', () => {
    expect(parseTokens('<span class="a">x &lt;<span class="b">&amp;&quot;&#x27;</span>&gt;</span> y')).toEqual([
      { className: 'a', children: ['x <', { className: 'b', children: ['&"\''] }, '>'] },
      ' y',
    ]);
  });
});
