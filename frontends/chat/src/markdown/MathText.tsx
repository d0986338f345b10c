import styled from '@emotion/styled';
import { useMemo } from 'react';
import { lazyModule, useLazyModule } from './lazyModule';
import type { MathSpan } from './mathSegments';

/** KaTeX, its stylesheet and its fonts: a chunk loaded only when a reply holds maths. */
export const katexChunk = lazyModule(() => import(/* webpackChunkName: "katex" */ './katexChunk'));

/** The formula as written, while KaTeX loads (or if it cannot). */
const Source = styled.span`
  &[data-display] {
    display: block;
  }
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.9em;
  white-space: pre-wrap;
`;

/**
 * Display maths scrolls sideways on its own when wider than the reply (a phone), and can then be focused to scroll
 * it with the keyboard.
 */
const Display = styled.span`
  display: block;
  max-width: 100%;
  overflow-x: auto;
  overflow-y: hidden;
  .katex-display {
    margin: 0.5rem 0;
  }
`;

/** One formula: its source until KaTeX has loaded, then KaTeX's rendering of it. */
export function MathText({ math }: { math: MathSpan }) {
  const katex = useLazyModule(katexChunk);
  const html = useMemo(() => katex?.renderTex(math.tex, math.display) ?? null, [katex, math.tex, math.display]);
  if (html === null) {
    return (
      <Source data-display={math.display || undefined} data-testid="math-source">
        {math.source}
      </Source>
    );
  }
  // KaTeX's output is built from the TeX with `trust` off (katexRender.ts): markup of its own, never the reply's.
  if (math.display) return <Display tabIndex={0} dangerouslySetInnerHTML={{ __html: html }} />;
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
}
