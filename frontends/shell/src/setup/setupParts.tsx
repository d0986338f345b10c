import styled from '@emotion/styled';
import { Actions, Button, InlineError } from '@kasa/ui';
import { settingFields } from '@kasa/ui/aiProviders';
import { useAiT } from './aiSetupText';

// The pieces every way of connecting AI in the step is drawn with.

const FieldBox = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  label {
    font-weight: 600;
  }
  select {
    width: 100%;
  }
`;

/** What a field or a button says about itself, under it. */
export const Hint = styled.p`
  color: var(--kasa-muted);
  font-size: 0.875rem;
`;

const Problem = styled.p`
  color: var(--kasa-danger);
  font-size: 0.875rem;
  font-weight: 600;
`;

/** The fields of the step (label, control, hint and problem), in the step's look. */
export const { SettingField, SettingTextField } = settingFields({ Box: FieldBox, Hint, Problem });

/** A choice's content, one row under the other. */
export const Rows = styled.div`
  display: grid;
  gap: 0.875rem;
`;

/** A choice's content as a form. */
export const FormRows = Rows.withComponent('form');

/** A row of buttons, spaced by the rows around it rather than by a margin of its own. */
export const StepActions = styled(Actions)`
  margin-top: 0;
`;

/** What went wrong, where the operator acted. */
export function Failure({ message }: { message: string }) {
  return (
    <InlineError role="alert">
      <p>{message}</p>
    </InlineError>
  );
}

/** A failed load: what happened, and Retry. */
export function LoadFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useAiT();
  return (
    <InlineError role="alert">
      <p>{message}</p>
      <Button type="button" variant="secondary" compact onClick={onRetry}>
        {t('ai.retry')}
      </Button>
    </InlineError>
  );
}
