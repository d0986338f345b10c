import styled from '@emotion/styled';
import type { Persona } from '@kasa/contracts';
import { Button, InlineError, Muted } from '../ui/controls';
import { PersonaAvatar } from './PersonaAvatar';

const Strip = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0 0 0.25rem;
  display: flex;
  gap: 0.5rem;
  overflow-x: auto;
`;

const Choice = styled.button`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  min-height: 3rem;
  min-width: 11rem;
  padding: 0.375rem 0.75rem 0.375rem 0.5rem;
  border: 2px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
  text-align: left;
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
    display: block;
    color: var(--kasa-muted);
    font-size: 0.75rem;
    line-height: 1.2;
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
  return (
    <nav aria-label="Personas" data-tour="chat-personas">
      {error ? (
        <InlineError role="alert">
          <p>Could not load the personas: {error}</p>
          <Button type="button" compact onClick={onRetry}>
            Retry
          </Button>
        </InlineError>
      ) : isLoading ? (
        <Muted role="status">Loading personas…</Muted>
      ) : (
        <Strip>
          {personas.map((persona) => (
            <li key={persona.id}>
              <Choice
                type="button"
                aria-pressed={persona.id === selectedId}
                onClick={() => onSelect(persona)}
                title={persona.greeting}
                data-testid={`persona-${persona.id}`}
              >
                <PersonaAvatar persona={persona} />
                <span>
                  <strong>{persona.name}</strong>
                  <small>{persona.expertise}</small>
                </span>
              </Choice>
            </li>
          ))}
        </Strip>
      )}
    </nav>
  );
}
