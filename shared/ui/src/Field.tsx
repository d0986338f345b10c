import styled from '@emotion/styled';
import { useId, type InputHTMLAttributes } from 'react';
import { fieldStyle } from '@kasa/ui';

const Wrapper = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.375rem;
  margin-bottom: 1rem;
`;

const Label = styled.label`
  font-weight: 600;
`;

const Input = styled.input`
  ${fieldStyle}
  min-height: 2.75rem;
  padding: 0.5rem 0.75rem;
  &:disabled {
    opacity: 0.7;
  }
`;

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
}

/** A labelled text input (the label is a real <label for>, so the field is found by its name). */
export function Field({ label, value, onValueChange, ...inputProps }: FieldProps) {
  const id = useId();
  return (
    <Wrapper>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} onChange={(event) => onValueChange(event.target.value)} {...inputProps} />
    </Wrapper>
  );
}
