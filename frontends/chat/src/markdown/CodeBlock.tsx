import styled from '@emotion/styled';
import { useMemo, type ReactNode } from 'react';
import { CopyButton } from '@kasa/ui/widgets';
import { useT } from '../i18n/useT';
import { grammarFor, grammarLoaded, highlight, loadGrammar, type CodeToken } from './highlight';
import { useLazyModule, type LazyModule } from './lazyModule';

/**
 * Token colours, as variables beside the theme's `--kasa-*` ones: each meets 4.5:1 (WCAG AA) on the code's
 * background (`--kasa-surface-muted`) in its mode; high contrast shows code in the text colour, set apart by weight
 * and slant only. CodeBlock.test.ts checks the ratios.
 */
export const CODE_COLOURS = {
  light: {
    '--kasa-code-keyword': '#7c3aed',
    '--kasa-code-string': '#15703a',
    '--kasa-code-number': '#a14a0b',
    '--kasa-code-comment': '#57606a',
    '--kasa-code-title': '#1d4ed8',
    '--kasa-code-type': '#0e7490',
    '--kasa-code-attr': '#b91c1c',
    '--kasa-code-meta': '#be185d',
  },
  dark: {
    '--kasa-code-keyword': '#c4b5fd',
    '--kasa-code-string': '#86efac',
    '--kasa-code-number': '#fdba74',
    '--kasa-code-comment': '#94a3b8',
    '--kasa-code-title': '#93c5fd',
    '--kasa-code-type': '#67e8f9',
    '--kasa-code-attr': '#fca5a5',
    '--kasa-code-meta': '#f9a8d4',
  },
} as const;

const declarations = (colours: Record<string, string>, value?: string) =>
  Object.entries(colours)
    .map(([name, colour]) => `${name}: ${value ?? colour};`)
    .join('\n');

export const CodeFrame = styled.figure`
  ${declarations(CODE_COLOURS.light)}
  /* The root element's theme classes (html, not :root: emotion reads a leading ':' as a pseudo-class of this). */
  html.dark & {
    ${declarations(CODE_COLOURS.dark)}
  }
  html.high-contrast & {
    ${declarations(CODE_COLOURS.light, 'var(--kasa-fg)')}
  }
  margin: 0.75rem 0;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
  overflow: hidden;
  figcaption {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    padding: 0.125rem 0.25rem 0.125rem 0.75rem;
    border-bottom: 1px solid var(--kasa-border);
    color: var(--kasa-muted);
    font-size: 0.8125rem;
  }
  pre {
    margin: 0;
    padding: 0.75rem;
    overflow-x: auto;
    font-size: 0.875rem;
    line-height: 1.45;
  }
  /* highlight.js's scopes (https://highlightjs.readthedocs.io/en/latest/css-classes-reference.html). */
  .hljs-keyword,
  .hljs-selector-tag,
  .hljs-doctag,
  .hljs-name,
  .hljs-section {
    color: var(--kasa-code-keyword);
    font-weight: 600;
  }
  .hljs-string,
  .hljs-regexp,
  .hljs-symbol,
  .hljs-char,
  .hljs-meta .hljs-string,
  .hljs-addition {
    color: var(--kasa-code-string);
  }
  .hljs-number,
  .hljs-literal,
  .hljs-bullet,
  .hljs-link {
    color: var(--kasa-code-number);
  }
  .hljs-comment,
  .hljs-quote {
    color: var(--kasa-code-comment);
    font-style: italic;
  }
  .hljs-title,
  .hljs-title.function_ {
    color: var(--kasa-code-title);
  }
  .hljs-type,
  .hljs-built_in,
  .hljs-title.class_,
  .hljs-class .hljs-title {
    color: var(--kasa-code-type);
  }
  .hljs-attr,
  .hljs-attribute,
  .hljs-property,
  .hljs-variable,
  .hljs-template-variable,
  .hljs-selector-id,
  .hljs-selector-class,
  .hljs-selector-attr,
  .hljs-deletion {
    color: var(--kasa-code-attr);
  }
  .hljs-meta,
  .hljs-selector-pseudo,
  .hljs-tag {
    color: var(--kasa-code-meta);
  }
  .hljs-emphasis {
    font-style: italic;
  }
  .hljs-strong {
    font-weight: 700;
  }
`;

/** The tokens as React elements: spans with highlight.js's classes around the code's text. */
function renderTokens(tokens: readonly CodeToken[]): ReactNode[] {
  return tokens.map((token, index) =>
    typeof token === 'string' ? (
      token
    ) : (
      <span key={index} className={token.className}>
        {renderTokens(token.children)}
      </span>
    ),
  );
}

/** One lazy module per grammar, so each code block waits for its own language only. */
const grammars = new Map<string, LazyModule<string>>();
function grammarModule(grammar: string): LazyModule<string> {
  let module = grammars.get(grammar);
  if (!module) {
    module = {
      current: () => (grammarLoaded(grammar) ? grammar : undefined),
      load: () => loadGrammar(grammar).then(() => grammar),
    };
    grammars.set(grammar, module);
  }
  return module;
}
/** Stands in for the grammar of a language that has none: never loads anything. */
const NO_GRAMMAR: LazyModule<string> = { current: () => undefined, load: () => new Promise(() => undefined) };

/**
 * A fenced code block with its language and a Copy button (which copies the code as written). Code in a language
 * with a grammar is highlighted once the grammar has loaded (plain until then, and for any other language).
 */
export function CodeBlock({ code, language }: { code: string; language: string | undefined }) {
  const t = useT();
  const grammar = grammarFor(language);
  const loaded = useLazyModule(grammar ? grammarModule(grammar) : NO_GRAMMAR, grammar !== undefined);
  const tokens = useMemo(() => (loaded ? highlight(code, loaded) : null), [code, loaded]);
  return (
    <CodeFrame>
      <figcaption>
        <span>{language || t('markdown.code')}</span>
        <CopyButton text={code} label={t('markdown.copyCode')} />
      </figcaption>
      {/* Focusable, so that a line wider than the reply can be scrolled to with the keyboard. */}
      <pre tabIndex={0}>
        {tokens ? (
          <code data-language={language || undefined} className="hljs" data-testid="highlighted-code">
            {renderTokens(tokens)}
          </code>
        ) : (
          <code data-language={language || undefined}>{code}</code>
        )}
      </pre>
    </CodeFrame>
  );
}
