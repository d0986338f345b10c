import styled from '@emotion/styled';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { tierLabel } from '@kasa/api-client';
import type { PersonSummary } from '@kasa/contracts';
import { Button, Muted, TextInput, VisuallyHidden } from '@kasa/ui';
import { usePeople } from '../api/adminQueries';
import { useBase } from '../base';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useT } from '../i18n/useT';
import { PersonDetailPanel } from '../people/PersonDetailPanel';
import { Badge, Hint, ItemList, Panel, Row, Stack } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';

const Columns = styled.div`
  display: grid;
  gap: 1rem;
  grid-template-columns: minmax(0, 1fr);
  @media (min-width: 64rem) {
    grid-template-columns: minmax(0, 22rem) minmax(0, 1fr);
    align-items: start;
  }
`;

const SearchRow = styled(Row)`
  flex-wrap: nowrap;
  input {
    flex: 1 1 auto;
    min-width: 0;
  }
`;

const PersonLink = styled(Link)`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  padding: 0.5rem;
  margin: -0.5rem;
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  text-decoration: none;
  &:hover {
    background: var(--kasa-surface-muted);
  }
  &[aria-current='true'] {
    background: var(--kasa-surface-muted);
    box-shadow: inset 3px 0 0 var(--kasa-primary);
  }
  strong {
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
`;

/** A person in the results: name, e-mail and what stands out (plan, suspended, operator). */
function PersonItem({ person, selected, search }: { person: PersonSummary; selected: boolean; search: string }) {
  const t = useT();
  const base = useBase();
  return (
    <li data-testid="person-result" data-person={person.id}>
      <PersonLink to={`${base}/people/${encodeURIComponent(person.id)}${search}`} aria-current={selected || undefined}>
        <strong>{person.username}</strong>
        <span>{person.email}</span>
        <Row>
          <Badge>{tierLabel(person.tier)}</Badge>
          {person.suspended ? <Badge tone="danger">{t('person.suspended')}</Badge> : null}
          {person.operator ? <Badge tone="accent">{t('person.operator')}</Badge> : null}
        </Row>
      </PersonLink>
    </li>
  );
}

/** The search's results, a page at a time. */
function Results({ q, selectedId }: { q: string; selectedId: string | undefined }) {
  const t = useT();
  const describe = useDescribeFailure();
  const people = usePeople(q);
  const [searchParams] = useSearchParams();
  const search = searchParams.toString() ? `?${searchParams.toString()}` : '';
  const found = people.data?.pages.flatMap((page) => page.people) ?? [];

  let body;
  if (people.isPending) body = <Loading>{t('people.searching')}</Loading>;
  else if (people.isError && !people.data)
    body = (
      <LoadError
        message={t('people.loadFailed', { reason: describe('load', people.error) })}
        onRetry={() => void people.refetch()}
      />
    );
  else if (found.length === 0)
    body = <Empty testId="people-empty">{q ? t('people.noMatch', { q }) : t('people.noPeople')}</Empty>;
  else
    body = (
      <>
        <ItemList data-testid="people-results">
          {found.map((person) => (
            <PersonItem key={person.id} person={person} selected={person.id === selectedId} search={search} />
          ))}
        </ItemList>
        {people.isFetchNextPageError ? (
          <LoadError
            message={t('people.loadFailed', { reason: describe('load', people.error) })}
            onRetry={() => void people.fetchNextPage()}
          />
        ) : null}
        {people.hasNextPage ? (
          <Button
            type="button"
            variant="secondary"
            compact
            disabled={people.isFetchingNextPage}
            onClick={() => void people.fetchNextPage()}
          >
            {people.isFetchingNextPage ? t('common.loading') : t('common.showMore')}
          </Button>
        ) : null}
      </>
    );

  return (
    <Panel aria-labelledby="admin-people-results">
      <h2 id="admin-people-results">{q ? t('people.resultsFor', { q }) : t('people.everyone')}</h2>
      <Stack>{body}</Stack>
    </Panel>
  );
}

/**
 * People: a search by name, e-mail or account id (kept in the address, `?q=`), its results, and the person chosen
 * (`people/<id>`) with their plan, allowance, keys, teams, last sign-in and suspension, and the operator's actions.
 */
export default function PeopleTab() {
  const t = useT();
  const { personId } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = (searchParams.get('q') ?? '').trim();
  const [text, setText] = useState(q);
  const id = useId();

  // Back and forward move through searches: the box follows the address.
  useEffect(() => setText(q), [q]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(searchParams);
    if (text.trim()) next.set('q', text.trim());
    else next.delete('q');
    setSearchParams(next);
  };

  return (
    <Stack>
      <form role="search" aria-labelledby={`${id}-label`} onSubmit={submit}>
        <label id={`${id}-label`} htmlFor={`${id}-q`} style={{ fontWeight: 600 }}>
          {t('people.search')}
        </label>
        <SearchRow style={{ marginTop: '0.25rem' }}>
          <TextInput
            id={`${id}-q`}
            type="search"
            value={text}
            maxLength={254}
            autoComplete="off"
            aria-describedby={`${id}-hint`}
            onChange={(event) => setText(event.target.value)}
          />
          <Button type="submit">{t('people.searchButton')}</Button>
        </SearchRow>
        <Hint id={`${id}-hint`}>{t('people.searchHint')}</Hint>
      </form>
      <Columns>
        <Results q={q} selectedId={personId} />
        {personId ? (
          <PersonDetailPanel key={personId} id={personId} />
        ) : (
          <Panel aria-labelledby={`${id}-none`}>
            <VisuallyHidden as="h2" id={`${id}-none`}>
              {t('person.heading')}
            </VisuallyHidden>
            <Muted data-testid="person-none">{t('people.pick')}</Muted>
          </Panel>
        )}
      </Columns>
    </Stack>
  );
}
