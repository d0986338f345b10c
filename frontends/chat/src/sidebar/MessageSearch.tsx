import styled from '@emotion/styled';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { MAX_SEARCH_LENGTH } from '../api/chatApi';
import { useMessageSearch } from '../api/chatQueries';
import { describeFailure } from '../conversation/useConversation';
import { Muted, TextInput } from '../ui/controls';

/** Waits this long after the last keystroke before searching. */
const DEBOUNCE_MS = 300;

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
  strong {
    display: block;
    font-size: 0.875rem;
  }
  span {
    display: block;
    color: var(--kasa-muted);
    font-size: 0.8125rem;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
`;

/** About 80 characters of the message around the first match, so the result shows why it matched. */
export function excerpt(content: string, term: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  const at = flat.toLowerCase().indexOf(term.toLowerCase());
  if (at < 0 || flat.length <= 80) return flat.slice(0, 80);
  const start = Math.max(0, at - 30);
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + 80)}${start + 80 < flat.length ? '…' : ''}`;
}

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Searches across all my messages (GET /api/chat/search) and links each hit to its conversation. */
export function MessageSearch() {
  const [text, setText] = useState('');
  const term = useDebounced(text.trim(), DEBOUNCE_MS);
  const search = useMessageSearch(term);
  const inputId = useId();
  const results = search.data?.results ?? [];

  return (
    <div role="search" aria-label="Search your messages">
      <label htmlFor={inputId} style={{ display: 'block', fontWeight: 600, marginBottom: '0.25rem' }}>
        Search messages
      </label>
      <TextInput
        id={inputId}
        type="search"
        value={text}
        maxLength={MAX_SEARCH_LENGTH}
        placeholder="Find a word in any chat"
        onChange={(event) => setText(event.target.value)}
      />
      {term ? (
        <div aria-live="polite" data-testid="search-results">
          {search.isError ? (
            <Muted role="alert">Search failed: {describeFailure(search.error)}</Muted>
          ) : search.isPending ? (
            <Muted>Searching…</Muted>
          ) : results.length === 0 ? (
            <Muted>No messages match “{term}”.</Muted>
          ) : (
            <Results aria-label={`Messages matching “${term}”`}>
              {results.map((hit) => (
                <li key={hit.message.id}>
                  <Link to={`/chat/${hit.sessionId}`}>
                    <strong>{hit.sessionTitle}</strong>
                    <span>{excerpt(hit.message.content, term)}</span>
                  </Link>
                </li>
              ))}
            </Results>
          )}
        </div>
      ) : null}
    </div>
  );
}
