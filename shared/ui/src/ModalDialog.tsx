import styled from '@emotion/styled';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';

const Dialog = styled('dialog', { shouldForwardProp: (prop) => prop !== 'width' })<{ width: string }>`
  width: ${({ width }) => `min(${width}, calc(100vw - 2rem))`};
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

export const DialogActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 0.5rem;
`;

/**
 * A modal on the native <dialog>: focus moves in (to `initialFocus` when given) and is kept there, Escape calls
 * `onClose`, and focus returns to where it was when the dialog goes. `title` is its heading and accessible name.
 */
export function ModalDialog({
  title,
  children,
  onClose,
  initialFocus,
  width = '26rem',
  testId,
}: {
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
  width?: string;
  testId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The element to focus when the dialog opens, as it was at mount: the effect below runs once.
  const focusFirst = useRef(initialFocus);

  // The dialog opens when it mounts and closes when it unmounts.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!element.open) element.showModal();
    focusFirst.current?.current?.focus();
    return () => {
      if (element.open) element.close();
      previous?.focus?.();
    };
  }, []);

  return (
    <Dialog
      ref={dialog}
      width={width}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </Dialog>
  );
}
