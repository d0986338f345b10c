import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import type { ChatSearchResults } from '@kasa/contracts';
import { useT } from '../i18n/useT';
import { useChatPaths } from '../chatPaths';
import { excerpt, highlight } from './highlight';

const Results = styled.ul`
  list-style: none;
  margin: 0.5rem 0 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  a {
    display: block;
    padding: 0.375rem 0.5rem;
    border-radius: var(--kasa-radius);
    color: var(--kasa-fg);
    text-decoration: none;
  }
  a:hover {
    background: var(--kasa-surface-muted);
  }
  /* What people wrote takes its own direction (dir="auto"): cut at its end, placed as the page's text is. */
  strong {
    display: block;
    font-size: 0.875rem;
    text-align: match-parent;
  }
  span {
    display: block;
    color: var(--kasa-muted);
    font-size: 0.8125rem;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    text-align: match-parent;
  }
  mark {
    padding: 0 0.0625rem;
    border-radius: 0.125rem;
    /* The system's highlight colours: legible in every theme, and kept by forced-colours modes. */
    background: Mark;
    color: MarkText;
  }
`;

/** The text with the query's words in <mark> (text nodes only, so a message cannot inject markup). */
function Marked({ text, term }: { text: string; term: string }) {
  return (
    <>
      {highlight(text, term).map((segment, index) =>
        segment.match ? <mark key={index}>{segment.text}</mark> : segment.text,
      )}
    </>
  );
}

/** The hits of a search, each linking to its conversation, with the matched words marked. */
export function SearchResults({ term, results }: { term: string; results: ChatSearchResults['results'] }) {
  const t = useT();
  const paths = useChatPaths();
  return (
    <Results aria-label={t('search.results', { term })}>
      {results.map((hit) => (
        <li key={hit.message.id} data-testid="search-hit">
          <Link to={paths.session(hit.sessionId)}>
            <strong dir="auto">
              <Marked text={hit.sessionTitle} term={term} />
            </strong>
            <span dir="auto">
              <Marked text={excerpt(hit.message.content, term)} term={term} />
            </span>
          </Link>
        </li>
      ))}
    </Results>
  );
}
