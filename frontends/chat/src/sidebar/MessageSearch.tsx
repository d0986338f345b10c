import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { MAX_SEARCH_LENGTH } from '../api/chatApi';
import { useMessageSearch } from '../api/chatQueries';
import { describeFailure } from '../conversation/useConversation';
import { Muted, TextInput } from '@kasa/ui';
import { useT } from '../i18n/useT';

/** Waits this long after the last keystroke before searching. */
const DEBOUNCE_MS = 300;

/** The results and their highlighting load with the first search, not with the chat. */
const loadResults = () => import('./SearchResults');
const SearchResults = lazy(() => loadResults().then((module) => ({ default: module.SearchResults })));
/** Starts loading them when the search box is focused, so the first results need not wait for them. */
const preloadResults = () => void loadResults().catch(() => undefined);

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
  const t = useT();
  const [text, setText] = useState('');
  const term = useDebounced(text.trim(), DEBOUNCE_MS);
  const search = useMessageSearch(term);
  const inputId = useId();
  const results = search.data?.results ?? [];

  return (
    <div role="search" aria-label={t('search.region')}>
      <label htmlFor={inputId} style={{ display: 'block', fontWeight: 600, marginBottom: '0.25rem' }}>
        {t('search.label')}
      </label>
      <TextInput
        id={inputId}
        type="search"
        value={text}
        maxLength={MAX_SEARCH_LENGTH}
        placeholder={t('search.placeholder')}
        onFocus={preloadResults}
        onChange={(event) => setText(event.target.value)}
      />
      {term ? (
        <div aria-live="polite" data-testid="search-results">
          {search.isError ? (
            <Muted role="alert">{t('search.failed', { reason: describeFailure(search.error) })}</Muted>
          ) : search.isPending ? (
            <Muted>{t('search.searching')}</Muted>
          ) : results.length === 0 ? (
            <Muted>{t('search.none', { term })}</Muted>
          ) : (
            <Suspense fallback={<Muted>{t('search.searching')}</Muted>}>
              <SearchResults term={term} results={results} />
            </Suspense>
          )}
        </div>
      ) : null}
    </div>
  );
}
