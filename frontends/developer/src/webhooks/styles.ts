import styled from '@emotion/styled';
import { TOUCH_MEDIA, TOUCH_TARGET } from '@kasa/ui';

// The Webhooks tab's layout pieces; panels, badges, code and rows come from ../ui/controls.

export const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 1rem;
`;

/** A list of checkboxes (or one switch), each a whole touch target on a phone. */
export const Choices = styled.fieldset`
  margin: 0 0 1rem;
  padding: 0;
  border: 0;
  min-width: 0;
  legend {
    font-weight: 600;
    margin-bottom: 0.25rem;
  }
  label {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 2rem;
    padding: 0.125rem 0;
    ${TOUCH_MEDIA} {
      min-height: ${TOUCH_TARGET};
    }
  }
  input {
    width: 1.125rem;
    height: 1.125rem;
    margin: 0;
    flex: none;
  }
  code {
    font-weight: 600;
  }
`;

/** The on/off switch of an endpoint: a labelled checkbox with role="switch". */
export const Switch = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
  min-height: 2rem;
  font-weight: 600;
  cursor: pointer;
  ${TOUCH_MEDIA} {
    min-height: ${TOUCH_TARGET};
  }
  input {
    width: 1.125rem;
    height: 1.125rem;
    margin: 0;
  }
`;

export const Field = styled.div`
  margin-bottom: 1rem;
`;

export const Hint = styled.p`
  margin: 0.25rem 0 0;
  color: var(--kasa-muted);
  font-size: 0.875rem;
`;

/** A field's problem, tied to it by aria-describedby. */
export const Problem = styled.p`
  margin: 0.25rem 0 0;
  color: var(--kasa-danger);
  font-size: 0.875rem;
  font-weight: 600;
`;

/** Endpoints and deliveries: items with a rule between them, their facts in a grid that stacks on a phone. */
export const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  > li {
    padding: 0.75rem 0 0;
    border-top: 1px solid var(--kasa-border);
    min-width: 0;
  }
  dl {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr));
    gap: 0.25rem 1rem;
    margin: 0.5rem 0;
  }
  dt {
    color: var(--kasa-muted);
    font-size: 0.8125rem;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** An endpoint's address: long ones wrap anywhere rather than widen the page. */
export const Address = styled.strong`
  overflow-wrap: anywhere;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.9375rem;
`;

/** An event's name as a small label (code, the same in every language). */
export const EventTag = styled.code`
  display: inline-block;
  padding: 0.0625rem 0.5rem;
  border: 1px solid var(--kasa-border);
  border-radius: 999px;
  background: var(--kasa-surface-muted);
  color: var(--kasa-fg);
  font-size: 0.8125rem;
  overflow-wrap: anywhere;
`;

export const Tags = styled.ul`
  list-style: none;
  display: flex;
  flex-wrap: wrap;
  gap: 0.375rem;
  margin: 0.5rem 0 0;
  padding: 0;
`;

/** The delivery log under an endpoint. */
export const Log = styled.section`
  margin-top: 0.75rem;
  padding: 0.75rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  min-width: 0;
  h4 {
    margin: 0;
    font-size: 1rem;
  }
`;
