import { useRef, type ReactNode } from 'react';
import { Button } from '@kasa/ui';
import { useUiT } from './messages';
import { DialogActions, ModalDialog } from './ModalDialog';

/**
 * A modal confirmation (see ModalDialog: focus kept inside, Escape cancels, focus returns). The cancel button gets
 * focus first, so Enter never confirms a destructive action by accident. Its label is the catalogue's
 * `common.cancel`.
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
  /** The destructive action's name: 'Delete', 'Revoke'. */
  confirmLabel: string;
  /** While the action runs: the confirm button is disabled. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useUiT();
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
