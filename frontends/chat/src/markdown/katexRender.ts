import katex from 'katex';

/**
 * A formula as KaTeX's HTML (with MathML for screen readers). KaTeX builds it from the TeX alone, with `trust`
 * off (no \href, \url, \includegraphics, \htmlClass…), so the HTML holds no link, script or attribute from the
 * reply. Invalid TeX does not throw: KaTeX shows its source in the error colour, with the error as its title.
 * Size and macro expansion are bounded, so a hostile formula cannot grow the page or hang it.
 */
export function renderTex(tex: string, display: boolean): string | null {
  try {
    return katex.renderToString(tex, {
      displayMode: display,
      throwOnError: false,
      // In the theme's danger colour, which meets 4.5:1 in light and in dark (KaTeX's own red does not on dark).
      errorColor: 'var(--kasa-danger)',
      trust: false,
      strict: 'ignore',
      output: 'htmlAndMathml',
      maxSize: 20,
      maxExpand: 500,
    });
  } catch {
    // throwOnError only covers parse errors: anything else leaves the source shown.
    return null;
  }
}
