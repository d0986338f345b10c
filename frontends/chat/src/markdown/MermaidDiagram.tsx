import styled from '@emotion/styled';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { CopyButton } from '@kasa/ui/widgets';
import { useT } from '../i18n/useT';
import { CodeFrame } from './CodeBlock';
import { lazyModule } from './lazyModule';

/** Mermaid and the chunks it loads per kind of diagram: loaded only when a reply holds a diagram. */
export const mermaidChunk = lazyModule(() => import(/* webpackChunkName: "mermaid" */ './mermaidChunk'));

/**
 * How long the source must stay unchanged before it is drawn: a reply being written changes it with every few
 * words, and drawing each half-written version would be wasted work (and show errors that fix themselves).
 */
export const SETTLE_MS = 400;

const Drawing = styled.div`
  display: flex;
  justify-content: center;
  padding: 0.75rem;
  background: var(--kasa-surface);
  svg {
    max-width: 100%;
    height: auto;
  }
`;

const Problem = styled.p`
  margin: 0;
  padding: 0.5rem 0.75rem 0;
  color: var(--kasa-fg);
  font-size: 0.875rem;
`;

const SourceDetails = styled.details`
  border-top: 1px solid var(--kasa-border);
  summary {
    padding: 0.25rem 0.75rem;
    color: var(--kasa-muted);
    font-size: 0.8125rem;
    cursor: pointer;
  }
`;

/** The root element's classes (light/dark, colour scheme, contrast), re-read when the theme changes. */
function subscribeToTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
const themeNow = () => document.documentElement.className;
const noTheme = () => '';

/** `value`, once it has stayed the same for `ms` (null until then). */
function useSettled(value: string, ms: number): string | null {
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

type Drawn = { source: string; theme: string } & ({ svg: string } | { failed: true });

/**
 * The latest drawings by theme and source, so that a diagram shown again (another conversation and back) appears
 * at once instead of after its source. A drawing is not reused while it is on the page: its ids must stay unique.
 */
const drawings = new Map<string, { svg: string; id: string | undefined }>();
const DRAWINGS_KEPT = 30;
const drawingKey = (source: string, theme: string) => `${theme}\n${source}`;
function keepDrawing(source: string, theme: string, svg: string) {
  const key = drawingKey(source, theme);
  drawings.delete(key);
  drawings.set(key, { svg, id: /^<svg[^>]*?\sid="([^"]+)"/.exec(svg)?.[1] });
  if (drawings.size > DRAWINGS_KEPT) drawings.delete(drawings.keys().next().value!);
}
function keptDrawing(source: string, theme: string): Drawn | null {
  if (typeof document === 'undefined') return null;
  const kept = drawings.get(drawingKey(source, theme));
  if (!kept || !kept.id || document.getElementById(kept.id)) return null;
  return { source, theme, svg: kept.svg };
}

/**
 * A ```mermaid block: its source while Mermaid loads and while the reply is still being written, then the diagram
 * in the page's theme (drawn again when the theme changes), with the source one click away. A source Mermaid
 * cannot read stays shown as code, under a short message.
 */
export function MermaidDiagram({ code }: { code: string }) {
  const t = useT();
  const theme = useSyncExternalStore(subscribeToTheme, themeNow, noTheme);
  const settled = useSettled(code, SETTLE_MS);
  const [drawn, setDrawn] = useState<Drawn | null>(() => keptDrawing(code, theme));

  useEffect(() => {
    if (settled === null) return;
    const kept = keptDrawing(settled, theme);
    if (kept) {
      setDrawn(kept);
      return;
    }
    let live = true;
    mermaidChunk
      .load()
      .then((chunk) => chunk.renderDiagram(settled))
      .then(
        (svg) => {
          keepDrawing(settled, theme, svg);
          if (live) setDrawn({ source: settled, theme, svg });
        },
        (error: unknown) => {
          // A chunk that did not load leaves the source shown; a diagram Mermaid cannot read says so.
          if (live && error instanceof Error && error.name === 'DiagramSyntaxError') {
            setDrawn({ source: settled, theme, failed: true });
          }
        },
      );
    return () => {
      live = false;
    };
  }, [settled, theme]);

  // What is shown belongs to this source (an older drawing stays up while the theme changes).
  const current = drawn?.source === code ? drawn : null;
  const svg = current && 'svg' in current ? current.svg : null;
  const source = (
    <pre tabIndex={0}>
      <code data-language="mermaid">{code}</code>
    </pre>
  );
  return (
    <CodeFrame
      data-testid="mermaid-diagram"
      aria-busy={current === null}
      data-state={current ? (svg ? 'drawn' : 'failed') : 'pending'}
    >
      <figcaption>
        <span>{t('markdown.diagram')}</span>
        <CopyButton text={code} label={t('markdown.copyCode')} />
      </figcaption>
      {svg ? (
        <>
          {/* Mermaid's SVG, drawn with securityLevel 'strict' (mermaidChunk.ts): sanitized, no scripts or links. */}
          <Drawing dangerouslySetInnerHTML={{ __html: svg }} />
          <SourceDetails>
            <summary>{t('markdown.diagramSource')}</summary>
            {source}
          </SourceDetails>
        </>
      ) : (
        <>
          {current ? <Problem role="status">{t('markdown.diagramError')}</Problem> : null}
          {source}
        </>
      )}
    </CodeFrame>
  );
}
