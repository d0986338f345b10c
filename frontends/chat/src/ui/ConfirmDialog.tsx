import { useRef, type ReactNode } from 'react';
import { Button } from './controls';
import { DialogActions, ModalDialog } from './ModalDialog';
import { useT } from '../i18n/useT';

/**
 * A modal confirmation (see ModalDialog: focus kept inside, Escape cancels, focus returns). The cancel button gets
 * focus first, so Enter never confirms a destructive action by accident.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog title={title} onClose={onCancel} initialFocus={cancel}>
      {children}
      <DialogActions>
        <Button ref={cancel} type="button" variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="button" variant="danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </ModalDialog>
  );
}
