import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@kasa/ui';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import { useT } from '../i18n/useT';
import { ActionError } from './States';
import { FieldProblem, FormField, Hint, NoteArea } from './controls';

/** The longest reason the API keeps. */
export const REASON_MAX = 500;

/**
 * A modal confirmation that asks why (see @kasa/ui's ModalDialog: focus kept inside, Escape cancels, focus
 * returns). Cancel has focus first, so Enter never confirms by accident. With `required`, an empty reason is refused
 * here, beside the field; `error` is the API's refusal, shown above the buttons.
 */
export function ReasonDialog({
  title,
  children,
  confirmLabel,
  required,
  busy,
  error,
  onConfirm,
  onCancel,
  testId,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  required: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
  testId?: string;
}) {
  const t = useT();
  const cancel = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (required && !reason.trim()) {
      setMissing(true);
      field.current?.focus();
      return;
    }
    onConfirm(reason.trim());
  };

  return (
    <ModalDialog title={title} onClose={onCancel} initialFocus={cancel} width="30rem" testId={testId}>
      {children}
      <form onSubmit={submit} noValidate>
        <FormField>
          <label htmlFor={`${id}-reason`}>{required ? t('reason.label') : t('reason.optionalLabel')}</label>
          <NoteArea
            ref={field}
            id={`${id}-reason`}
            value={reason}
            maxLength={REASON_MAX}
            aria-invalid={missing || undefined}
            aria-describedby={`${id}-hint${missing ? ` ${id}-problem` : ''}`}
            onChange={(event) => {
              setReason(event.target.value);
              if (event.target.value.trim()) setMissing(false);
            }}
          />
          <Hint id={`${id}-hint`}>{t('reason.hint')}</Hint>
          {missing ? <FieldProblem id={`${id}-problem`}>{t('reason.required')}</FieldProblem> : null}
        </FormField>
        {error ? <ActionError message={error} /> : null}
        <DialogActions style={{ marginTop: '1rem' }}>
          <Button ref={cancel} type="button" variant="ghost" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? t('common.working') : confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}
