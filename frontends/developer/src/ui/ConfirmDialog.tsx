import styled from '@emotion/styled';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/useT';
import { Button } from './controls';

const Dialog = styled.dialog`
  max-width: min(26rem, calc(100vw - 2rem));
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  box-shadow: var(--kasa-shadow);
  &::backdrop {
    background: rgba(15, 23, 42, 0.45);
  }
  h2 {
    margin: 0 0 0.5rem;
    font-size: 1.125rem;
  }
  p {
    margin: 0 0 1rem;
    color: var(--kasa-muted);
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 0.5rem;
`;

/**
 * A modal confirmation on the native <dialog> (focus moves in and is kept there, Escape cancels, focus returns
 * to where it was). The cancel button gets focus first, so Enter never confirms a destructive action by accident.
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
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!element.open) element.showModal();
    cancel.current?.focus();
    return () => {
      if (element.open) element.close();
      previous?.focus?.();
    };
  }, []);

  return (
    <Dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <Actions>
        <Button ref={cancel} type="button" variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="button" variant="danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Actions>
    </Dialog>
  );
}
