// The "mermaid" chunk (with the chunks Mermaid loads per kind of diagram): loaded only when a reply holds a
// ```mermaid block (MermaidDiagram.tsx).
import mermaid from 'mermaid';

/** A token of the page's theme (`--kasa-fg`…) as the root element resolves it now, or `fallback`. */
function token(styles: CSSStyleDeclaration, name: string, fallback: string): string {
  return styles.getPropertyValue(name).trim() || fallback;
}

/**
 * Mermaid's colours from the page's theme, read when a diagram is drawn: nodes on the muted surface with the
 * brand colour as their border, text and lines in the theme's text colours, in light and in dark.
 */
function themeVariables(): Record<string, string | boolean> {
  const root = document.documentElement;
  const styles = getComputedStyle(root);
  const dark = root.classList.contains('dark');
  const fg = token(styles, '--kasa-fg', dark ? '#f1f5f9' : '#0f172a');
  const muted = token(styles, '--kasa-muted', dark ? '#cbd5e1' : '#475569');
  const surface = token(styles, '--kasa-surface', dark ? '#111a2e' : '#ffffff');
  const surfaceMuted = token(styles, '--kasa-surface-muted', dark ? '#1b2740' : '#eef2f7');
  const primary = token(styles, '--kasa-primary', dark ? '#a5b4fc' : '#4338ca');
  const border = token(styles, '--kasa-border', dark ? '#334155' : '#cbd5e1');
  return {
    darkMode: dark,
    background: surface,
    fontFamily: getComputedStyle(document.body).fontFamily,
    primaryColor: surfaceMuted,
    primaryTextColor: fg,
    primaryBorderColor: primary,
    secondaryColor: surface,
    secondaryTextColor: fg,
    secondaryBorderColor: border,
    tertiaryColor: surface,
    tertiaryTextColor: fg,
    tertiaryBorderColor: border,
    mainBkg: surfaceMuted,
    nodeBorder: primary,
    clusterBkg: surface,
    clusterBorder: border,
    lineColor: muted,
    textColor: fg,
    titleColor: fg,
    edgeLabelBackground: surface,
    noteBkgColor: surface,
    noteTextColor: fg,
    noteBorderColor: border,
    actorBkg: surfaceMuted,
    actorBorder: primary,
    actorTextColor: fg,
    actorLineColor: muted,
    signalColor: fg,
    signalTextColor: fg,
    labelBoxBkgColor: surfaceMuted,
    labelBoxBorderColor: primary,
    labelTextColor: fg,
    loopTextColor: fg,
  };
}

/** Diagrams are drawn one at a time: Mermaid's configuration is global, and each drawing sets it for the theme. */
let queue: Promise<unknown> = Promise.resolve();
let drawn = 0;

/** Raised for a diagram Mermaid cannot read; its message is not shown (the chat shows a catalogued one). */
export class DiagramSyntaxError extends Error {
  override name = 'DiagramSyntaxError';
}

/**
 * The diagram as SVG, in the page's current theme. `securityLevel: 'strict'` keeps the source's HTML out (labels
 * are sanitized by DOMPurify, scripts and click handlers are dropped) and nothing is loaded from elsewhere.
 * Rejects with DiagramSyntaxError when the source does not parse.
 */
export function renderDiagram(source: string): Promise<string> {
  const run = queue.then(async () => {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'base',
      themeVariables: themeVariables(),
      // Bounded work for text that a model wrote.
      maxTextSize: 20_000,
      maxEdges: 300,
    });
    if (!(await mermaid.parse(source, { suppressErrors: true }))) throw new DiagramSyntaxError('unreadable diagram');
    const id = `kasa-mermaid-${++drawn}`;
    try {
      const { svg } = await mermaid.render(id, source);
      return svg;
    } finally {
      // Mermaid draws in a temporary element of the page's body; it is gone after success, not always after failure.
      document.getElementById(id)?.remove();
      document.getElementById(`d${id}`)?.remove();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
