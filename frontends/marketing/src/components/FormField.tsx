import styled from '@emotion/styled';
import { useId, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';

const Wrapper = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.375rem;
  margin-bottom: 1rem;
  label {
    font-weight: 600;
  }
  input,
  textarea {
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--kasa-muted);
    border-radius: var(--kasa-radius);
    background: var(--kasa-surface);
    color: var(--kasa-fg);
    font: inherit;
  }
  textarea {
    min-height: 9rem;
    resize: vertical;
  }
  [aria-invalid='true'] {
    border: 2px solid var(--kasa-danger, #b91c1c);
  }
  :disabled {
    opacity: 0.7;
  }
`;

const Hint = styled.span`
  color: var(--kasa-muted);
  font-size: 0.875rem;
`;

interface Common {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  hint?: string;
  invalid?: boolean;
}

type InputProps = Common & { multiline?: false } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'>;
type TextareaProps = Common & { multiline: true } & Omit<
    TextareaHTMLAttributes<HTMLTextAreaElement>,
    'id' | 'onChange'
  >;

/** A labelled input or textarea (a real <label for>, so the control is found by its name). */
export function FormField(props: InputProps | TextareaProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const { label, value, onValueChange, hint, invalid, multiline, ...rest } = props;
  const shared = {
    id,
    value,
    'aria-invalid': invalid || undefined,
    'aria-describedby': hint ? hintId : undefined,
  };
  return (
    <Wrapper>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)}
          {...shared}
          onChange={(event) => onValueChange(event.target.value)}
        />
      ) : (
        <input
          {...(rest as InputHTMLAttributes<HTMLInputElement>)}
          {...shared}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
      {hint ? <Hint id={hintId}>{hint}</Hint> : null}
    </Wrapper>
  );
}
