import styled from '@emotion/styled';
import MarkdownToJsx, { RuleType, type MarkdownToJSX } from 'markdown-to-jsx/react';
import { Fragment, useMemo, type AnchorHTMLAttributes, type ImgHTMLAttributes, type ReactNode } from 'react';
import { FileText, ICON } from '@kasa/ui';
import { CopyButton } from '@kasa/ui/widgets';
import { useT } from '../i18n/useT';

const CodeFrame = styled.figure`
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
`;

/** A fenced code block with its language and a Copy button. */
function CodeBlock({ code, language }: { code: string; language: string | undefined }) {
  const t = useT();
  return (
    <CodeFrame>
      <figcaption>
        <span>{language || t('markdown.code')}</span>
        <CopyButton text={code} label={t('markdown.copyCode')} />
      </figcaption>
      <pre>
        <code data-language={language || undefined}>{code}</code>
      </pre>
    </CodeFrame>
  );
}

/** Links from a reply open in a new tab, without handing it this page (`noopener`) or the referrer. */
function ReplyLink({ href, children, title }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  if (!href) return <>{children}</>;
  return (
    <a href={href} title={title} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/**
 * Images in a reply become links: loading a URL that a model wrote would let a prompt-injected page send the
 * conversation to a third party through the image's address, without a click.
 */
function ReplyImage({ src, alt }: ImgHTMLAttributes<HTMLImageElement>) {
  const label = `Image: ${alt || 'untitled'}`;
  if (typeof src !== 'string' || !src) return <span>{label}</span>;
  return (
    <a href={src} target="_blank" rel="noopener noreferrer nofollow">
      {label}
    </a>
  );
}

/** A part of an attached document cited in a reply, labelled as the chat service labels it: `[report.pdf, p. 3]`. */
const CITATION = /\[([^[\]\n]+?), (?:p\.|§) \d+\]/g;

/** A cited part, set apart from the text around it, as written (read, and copied, with the text). */
const Citation = styled.cite`
  /* Whole on a line where it fits (its icon with its label); a name longer than the line wraps inside it. */
  display: inline-block;
  max-width: 100%;
  padding: 0 0.375rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
  font-size: 0.875em;
  font-style: normal;
  svg {
    margin-inline-end: 0.25rem;
    vertical-align: -0.125em;
  }
`;

/** The text with each citation of one of `sources` (the conversation's files) as a Citation; others stay text. */
function withCitations(text: string, sources: ReadonlySet<string>): ReactNode[] | null {
  const pieces: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(CITATION)) {
    const [whole, name] = match;
    if (!sources.has(name!)) continue;
    if (match.index > from) pieces.push(text.slice(from, match.index));
    pieces.push(
      <Citation key={match.index} data-testid="citation" data-source={name}>
        <FileText {...ICON} size={14} />
        {whole}
      </Citation>,
    );
    from = match.index + whole.length;
  }
  if (pieces.length === 0) return null;
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}

/**
 * Safe by construction: the markdown becomes React elements (never an HTML string), raw HTML in the text is shown
 * as text (`disableParsingRawHTML`), `javascript:`-style URLs are dropped by the library's sanitizer, and images
 * are not loaded. A citation of one of `sources` is marked as one (not inside a link).
 */
function optionsFor(sources: ReadonlySet<string>): MarkdownToJSX.Options {
  // Whether the text being rendered is a link's (its children render within the link's `next()`).
  let inLink = false;
  return {
    disableParsingRawHTML: true,
    forceBlock: true,
    overrides: { a: { component: ReplyLink }, img: { component: ReplyImage } },
    renderRule(next, node, _renderChildren, state) {
      if (node.type === RuleType.codeBlock) return <CodeBlock key={state.key} code={node.text} language={node.lang} />;
      if (node.type === RuleType.link) {
        inLink = true;
        try {
          return next();
        } finally {
          inLink = false;
        }
      }
      if (node.type === RuleType.text && sources.size > 0 && !inLink) {
        const pieces = withCitations(node.text, sources);
        if (pieces) return <Fragment key={state.key}>{pieces}</Fragment>;
      }
      return next();
    },
  };
}

const Prose = styled.div`
  overflow-wrap: anywhere;
  > :first-child {
    margin-top: 0;
  }
  > :last-child {
    margin-bottom: 0;
  }
  p,
  ul,
  ol,
  blockquote,
  table {
    margin: 0.5rem 0;
  }
  ul,
  ol {
    padding-left: 1.5rem;
  }
  :not(pre) > code {
    padding: 0.1em 0.3em;
    border-radius: calc(var(--kasa-radius) / 2);
    background: var(--kasa-surface-muted);
    font-size: 0.9em;
  }
  blockquote {
    padding-left: 0.75rem;
    border-left: 3px solid var(--kasa-border);
    color: var(--kasa-muted);
  }
  table {
    display: block;
    overflow-x: auto;
    border-collapse: collapse;
  }
  th,
  td {
    padding: 0.25rem 0.5rem;
    border: 1px solid var(--kasa-border);
  }
  h1,
  h2,
  h3,
  h4 {
    margin: 0.75rem 0 0.375rem;
    font-size: 1.05rem;
  }
`;

/**
 * Renders a reply's markdown (headings, lists, tables, code blocks with Copy) safely; citations of `sources` (the
 * names of the conversation's files) are marked.
 */
export function Markdown({ text, sources = [] }: { text: string; sources?: readonly string[] }) {
  // The names, not the array, decide the options (a new array each render keeps them).
  const names = sources.join('\n');
  const options = useMemo(() => optionsFor(new Set(names ? names.split('\n') : [])), [names]);
  return (
    <Prose>
      <MarkdownToJsx options={options}>{text}</MarkdownToJsx>
    </Prose>
  );
}

export default Markdown;
