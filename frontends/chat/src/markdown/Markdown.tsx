import styled from '@emotion/styled';
import MarkdownToJsx, { RuleType, type MarkdownToJSX } from 'markdown-to-jsx/react';
import type { AnchorHTMLAttributes, ImgHTMLAttributes } from 'react';
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

/**
 * Safe by construction: the markdown becomes React elements (never an HTML string), raw HTML in the text is shown
 * as text (`disableParsingRawHTML`), `javascript:`-style URLs are dropped by the library's sanitizer, and images
 * are not loaded.
 */
const options: MarkdownToJSX.Options = {
  disableParsingRawHTML: true,
  forceBlock: true,
  overrides: { a: { component: ReplyLink }, img: { component: ReplyImage } },
  renderRule(next, node, _renderChildren, state) {
    if (node.type === RuleType.codeBlock) return <CodeBlock key={state.key} code={node.text} language={node.lang} />;
    return next();
  },
};

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

/** Renders a reply's markdown (headings, lists, tables, code blocks with Copy) safely. */
export function Markdown({ text }: { text: string }) {
  return (
    <Prose>
      <MarkdownToJsx options={options}>{text}</MarkdownToJsx>
    </Prose>
  );
}

export default Markdown;
