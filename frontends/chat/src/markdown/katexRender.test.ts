import { renderTex } from './katexRender';

describe('KaTeX rendering', () => {
  it('renders inline and display maths, with MathML for screen readers', () => {
    const inline = renderTex('e^{i\\pi} + 1 = 0', false)!;
    expect(inline).toMatch(/^<span class="katex">/);
    expect(inline).toContain('<math');
    expect(inline).not.toContain('katex-display');
    expect(renderTex('\\frac{a}{b}', true)).toMatch(/^<span class="katex-display">/);
  });

  it('shows invalid TeX as its source instead of throwing', () => {
    const html = renderTex('\\frac{1}{', false)!;
    expect(html).toContain('katex-error');
    expect(html).toContain('\\frac{1}{');
  });

  it('makes no links, classes or styles the TeX asks for (trust is off)', () => {
    const html = renderTex('\\href{javascript:alert(1)}{x} \\url{https://evil.example} \\htmlClass{evil}{y}', false)!;
    expect(html).not.toMatch(/<a[\s>]/);
    expect(html).not.toContain('href="javascript');
    expect(html).not.toContain('class="evil"');
  });
});
