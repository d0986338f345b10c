import styled from '@emotion/styled';
import MarkdownToJsx, { RuleType, type MarkdownToJSX } from 'markdown-to-jsx/react';
import { Fragment, useMemo, type AnchorHTMLAttributes, type ImgHTMLAttributes, type ReactNode } from 'react';
import { FileText, ICON } from '@kasa/ui';
import { CodeBlock } from './CodeBlock';
import { MathText } from './MathText';
import { MermaidDiagram } from './MermaidDiagram';
import { protectMath, restoreMath, splitMath, type MathSpan } from './mathSegments';

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

type ListNode = MarkdownToJSX.OrderedListNode | MarkdownToJSX.UnorderedListNode;

/** Nodes that are blocks of their own in a list item (what follows a task's text, such as a nested list). */
const BLOCKS: ReadonlySet<number> = new Set([
  RuleType.blockQuote,
  RuleType.codeBlock,
  RuleType.heading,
  RuleType.orderedList,
  RuleType.unorderedList,
  RuleType.paragraph,
  RuleType.table,
  RuleType.breakThematic,
]);

/**
 * A list with GFM task items (`- [ ] to do`, `- [x] done`): each task's checkbox is disabled (a reply is not a
 * form) and labelled by the item's text, on the same line as the text. In a loose list (items apart) the text is
 * the item's first paragraph; what follows it (a nested list, more paragraphs) comes after the label.
 */
function taskList(node: ListNode, renderChildren: MarkdownToJSX.ASTRender, state: MarkdownToJSX.State): ReactNode {
  // Rendered within the markdown's own rendering pass (not as a component later), as every other node is.
  const key = state.key;
  const items = node.items.map((item, index) => {
    const [first] = item;
    if (first?.type !== RuleType.gfmTask) return <li key={index}>{renderChildren(item, state)}</li>;
    let rest = item.slice(1);
    while (rest[0]?.type === RuleType.text && !rest[0].text.trim()) rest = rest.slice(1);
    let label: MarkdownToJSX.ASTNode[];
    if (rest[0]?.type === RuleType.paragraph) {
      label = rest[0].children;
      rest = rest.slice(1);
    } else {
      const end = rest.findIndex((child) => BLOCKS.has(child.type));
      label = end === -1 ? rest : rest.slice(0, end);
      rest = end === -1 ? [] : rest.slice(end);
    }
    return (
      <li key={index} className="task-list-item">
        <label>
          <input type="checkbox" disabled checked={first.completed} />
          {renderChildren(label, state)}
        </label>
        {rest.length > 0 ? renderChildren(rest, state) : null}
      </li>
    );
  });
  return node.type === RuleType.orderedList ? (
    <ol key={key} start={node.start} className="contains-task-list">
      {items}
    </ol>
  ) : (
    <ul key={key} className="contains-task-list">
      {items}
    </ul>
  );
}

/**
 * Safe by construction: the markdown becomes React elements (never an HTML string of the reply's), raw HTML in the
 * text is shown as text (`disableParsingRawHTML`), `javascript:`-style URLs are dropped by the library's sanitizer,
 * and images are not loaded. A citation of one of `sources` is marked as one (not inside a link). Maths (taken out
 * of the text before parsing, see mathSegments.ts) comes back as KaTeX where its placeholder lands, and as written
 * inside code and link targets; ```mermaid blocks become diagrams, ```math blocks display maths. KaTeX and Mermaid
 * produce markup of their own from the source, under their safe settings (katexRender.ts, mermaidChunk.ts).
 */
function optionsFor(sources: ReadonlySet<string>, math: readonly MathSpan[]): MarkdownToJSX.Options {
  // Whether the text being rendered is a link's (its children render within the link's `next()`).
  let inLink = false;
  /** Plain text, with citations marked where there are files (and not in a link). */
  const plain = (text: string, key: string | number | undefined): ReactNode => {
    if (sources.size === 0 || inLink) return text;
    const pieces = withCitations(text, sources);
    return pieces ? <Fragment key={key}>{pieces}</Fragment> : text;
  };
  return {
    disableParsingRawHTML: true,
    forceBlock: true,
    overrides: { a: { component: ReplyLink }, img: { component: ReplyImage } },
    renderRule(next, node, renderChildren, state) {
      if (node.type === RuleType.codeBlock) {
        const code = restoreMath(node.text, math);
        const language = node.lang?.trim().toLowerCase();
        if (language === 'mermaid') return <MermaidDiagram key={state.key} code={code} />;
        if (language === 'math' && code.trim()) {
          return <MathText key={state.key} math={{ tex: code.trim(), display: true, source: code }} />;
        }
        return <CodeBlock key={state.key} code={code} language={node.lang} />;
      }
      if (node.type === RuleType.codeInline) return <code key={state.key}>{restoreMath(node.text, math)}</code>;
      if ((node.type === RuleType.unorderedList || node.type === RuleType.orderedList) && node.items.some(isTask)) {
        return taskList(node, renderChildren, state);
      }
      if (node.type === RuleType.link) {
        if (node.target) node.target = restoreMath(node.target, math);
        inLink = true;
        try {
          return next();
        } finally {
          inLink = false;
        }
      }
      if (node.type === RuleType.text) {
        const pieces = splitMath(node.text, math);
        if (pieces.length === 1 && typeof pieces[0] === 'string') return plain(pieces[0], state.key);
        return (
          <Fragment key={state.key}>
            {pieces.map((piece, index) =>
              typeof piece === 'string' ? plain(piece, index) : <MathText key={index} math={piece} />,
            )}
          </Fragment>
        );
      }
      return next();
    },
  };
}

const isTask = (item: MarkdownToJSX.ASTNode[]) => item[0]?.type === RuleType.gfmTask;

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
  /* A task's checkbox sits where the bullet would, on its text's line. */
  .task-list-item {
    list-style: none;
  }
  .task-list-item > label > input {
    margin-block: 0;
    margin-inline: -1.375rem 0.375rem;
    vertical-align: -0.125em;
    accent-color: var(--kasa-primary);
  }
`;

/**
 * Renders a reply's markdown (headings, lists and task lists, tables, highlighted code blocks with Copy, maths,
 * Mermaid diagrams) safely; citations of `sources` (the names of the conversation's files) are marked. What is
 * heavy (highlight.js and its grammars, KaTeX, Mermaid) loads when a reply first needs it.
 */
export function Markdown({ text, sources = [] }: { text: string; sources?: readonly string[] }) {
  // The names, not the array, decide the options (a new array each render keeps them).
  const names = sources.join('\n');
  const { text: markdown, math } = useMemo(() => protectMath(text), [text]);
  const options = useMemo(() => optionsFor(new Set(names ? names.split('\n') : []), math), [names, math]);
  return (
    <Prose>
      <MarkdownToJsx options={options}>{markdown}</MarkdownToJsx>
    </Prose>
  );
}

export default Markdown;
