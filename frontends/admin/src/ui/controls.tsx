import styled from '@emotion/styled';
import { fieldStyle } from '@kasa/ui';

// The console's own building blocks: panels, badges, lists and facts. Buttons, inputs, dialogs and the rest of the
// design system come from @kasa/ui; colours from the shell's CSS variables (`--kasa-*`), so both themes apply.

/** A panel of the console (a person, an inquiry, the filters): flat, unlike @kasa/ui's raised page Card. */
export const Panel = styled.section`
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  min-width: 0;
  h2,
  h3 {
    margin: 0 0 0.75rem;
    font-size: 1.125rem;
  }
  @media (max-width: 30rem) {
    padding: 1rem 0.875rem;
  }
`;

export const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 1rem;
  min-width: 0;
`;

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
`;

/** A state beside a name (a plan, Suspended, Operator): a shape and a word, never colour alone. */
export const Badge = styled.span<{ tone?: 'default' | 'danger' | 'accent' }>`
  display: inline-flex;
  align-items: center;
  gap: 0.25rem;
  padding: 0.0625rem 0.5rem;
  border: 1px solid
    ${({ tone }) =>
      tone === 'danger' ? 'var(--kasa-danger)' : tone === 'accent' ? 'var(--kasa-accent)' : 'var(--kasa-border)'};
  border-radius: 999px;
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font-size: 0.8125rem;
  font-weight: 600;
  white-space: nowrap;
`;

/** A list of items separated by rules. */
export const ItemList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  > li {
    padding: 0.75rem 0;
    border-top: 1px solid var(--kasa-border);
    min-width: 0;
    overflow-wrap: anywhere;
  }
  > li:first-of-type {
    border-top: 0;
    padding-top: 0;
  }
`;

/** Facts as term and value, in columns where there is room. */
export const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr));
  gap: 0.5rem 1rem;
  margin: 0.5rem 0 1rem;
  dt {
    color: var(--kasa-muted);
    font-size: 0.8125rem;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** An identifier (an account id, a key prefix, a request id), in a monospace font. */
export const Mono = styled.code`
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.8125rem;
  overflow-wrap: anywhere;
`;

/** A multi-line text field for reasons and notes, in the interface's font. */
export const NoteArea = styled.textarea`
  ${fieldStyle}
  width: 100%;
  min-height: 5rem;
  padding: 0.5rem 0.625rem;
  font: inherit;
`;

/** What a form field says about itself, under it. */
export const Hint = styled.p`
  margin: 0.25rem 0 0;
  color: var(--kasa-muted);
  font-size: 0.8125rem;
`;

/** A field's problem, under it, tied to it by aria-describedby. */
export const FieldProblem = styled.p`
  margin: 0.25rem 0 0;
  color: var(--kasa-danger);
  font-size: 0.875rem;
  font-weight: 600;
`;

/** A form's field: label above, then the control and what it says. */
export const FormField = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  min-width: 0;
  margin-bottom: 0.875rem;
  label {
    font-weight: 600;
  }
`;
