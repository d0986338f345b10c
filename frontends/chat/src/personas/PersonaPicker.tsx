import styled from '@emotion/styled';
import type { Persona } from '@kasa/contracts';
import { Button, InlineError, Muted, visuallyHidden } from '@kasa/ui';
import { PersonaAvatar } from './PersonaAvatar';
import { useT } from '../i18n/useT';
import { personaText } from '../i18n/personaText';

const Strip = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0 0 0.25rem;
  /* Every persona in sight: as many columns as fit (all six beside a desktop's sidebar), then a second row. */
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr));
  gap: 0.5rem;
  /* On a phone: one row of compact choices that scrolls sideways under the thumb. */
  @media (max-width: 48rem) {
    display: flex;
    overflow-x: auto;
    gap: 0.375rem;
    scroll-snap-type: x proximity;
    overscroll-behavior-x: contain;
    scrollbar-width: thin;
    li {
      flex: none;
      scroll-snap-align: start;
    }
  }
`;

const Choice = styled.button`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  width: 100%;
  height: 100%;
  min-height: 3rem;
  min-width: 0;
  padding: 0.375rem 0.75rem 0.375rem 0.5rem;
  border: 2px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
  text-align: start;
  cursor: pointer;
  &[aria-pressed='true'] {
    border-color: var(--kasa-primary);
    box-shadow: inset 0 0 0 1px var(--kasa-primary);
  }
  &:hover {
    background: var(--kasa-surface-muted);
  }
  strong {
    display: block;
    line-height: 1.2;
  }
  small {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
    color: var(--kasa-muted);
    font-size: 0.75rem;
    line-height: 1.2;
  }
  /* On a phone the avatar and the name; the expertise stays in the button's name for screen readers. */
  @media (max-width: 48rem) {
    /* Holds the hidden expertise, so the row's scrolling clips it rather than the page growing sideways. */
    position: relative;
    width: auto;
    height: auto;
    min-width: 0;
    min-height: 2.75rem;
    gap: 0.375rem;
    padding: 0.25rem;
    padding-inline-end: 0.75rem;
    white-space: nowrap;
    small {
      ${visuallyHidden}
    }
  }
`;

/**
 * The personas as a row of toggle buttons (the pressed one is the conversation's). Picking another one starts a
 * new conversation with it.
 */
export function PersonaPicker({
  personas,
  selectedId,
  onSelect,
  isLoading,
  error,
  onRetry,
}: {
  personas: Persona[];
  selectedId: string | undefined;
  onSelect: (persona: Persona) => void;
  isLoading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  const t = useT();
  return (
    <nav aria-label={t('personas.label')} data-tour="chat-personas">
      {error ? (
        <InlineError role="alert">
          <p>{t('personas.loadFailed', { reason: error })}</p>
          <Button type="button" compact onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </InlineError>
      ) : isLoading ? (
        <Muted role="status">{t('personas.loading')}</Muted>
      ) : (
        <Strip>
          {personas.map((persona) => (
            <li key={persona.id}>
              <Choice
                type="button"
                aria-pressed={persona.id === selectedId}
                onClick={() => onSelect(persona)}
                title={persona.greeting ? personaText(t, persona, 'greeting') : undefined}
                data-testid={`persona-${persona.id}`}
              >
                <PersonaAvatar persona={persona} />
                <span>
                  <strong>{persona.name}</strong>
                  <small>{personaText(t, persona, 'expertise')}</small>
                </span>
              </Choice>
            </li>
          ))}
        </Strip>
      )}
    </nav>
  );
}
