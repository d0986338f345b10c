import styled from '@emotion/styled';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Button, TOUCH_MEDIA, TOUCH_TARGET } from '@kasa/ui';

const Wrapper = styled.div`
  position: relative;
`;

const Panel = styled.div`
  position: absolute;
  inset-inline-end: 0;
  top: calc(100% + 0.375rem);
  z-index: 30;
  min-width: min(15rem, calc(100vw - 1rem));
  max-width: calc(100vw - 1rem);
  /* Long menus (nine languages) scroll inside a short window rather than run off its bottom. */
  overflow-y: auto;
  overscroll-behavior: contain;
  padding: 0.5rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  box-shadow: var(--kasa-shadow);
  display: flex;
  flex-direction: column;
  gap: 0.125rem;
  h2 {
    margin: 0.25rem 0.5rem;
    font-size: 0.8125rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--kasa-muted);
  }
`;

/** A full-width row inside a menu panel. */
export const MenuItem = styled.button`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  width: 100%;
  min-height: 2.5rem;
  padding: 0.375rem 0.625rem;
  border: 0;
  border-radius: var(--kasa-radius);
  background: transparent;
  color: var(--kasa-fg);
  font: inherit;
  text-align: start;
  cursor: pointer;
  &:hover,
  &[aria-pressed='true'] {
    background: var(--kasa-surface-muted);
  }
  &[aria-pressed='true'] {
    font-weight: 700;
  }
  ${TOUCH_MEDIA} {
    min-height: ${TOUCH_TARGET};
  }
`;

/** The room kept between an open menu and the window's edges (px). */
const EDGE_PX = 8;

/**
 * Moves an open panel, hung under its button, sideways until all of it is inside the window (a button in the middle
 * of a phone's bar would otherwise hang it past the left edge, or past the right one right to left), and caps its
 * height at the room below the button.
 */
function keepOnScreen(panel: HTMLElement) {
  panel.style.translate = '';
  panel.style.maxHeight = '';
  const box = panel.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const shift = box.left < EDGE_PX ? EDGE_PX - box.left : box.right > width - EDGE_PX ? width - EDGE_PX - box.right : 0;
  if (shift !== 0) panel.style.translate = `${Math.round(shift)}px 0`;
  panel.style.maxHeight = `${Math.max(0, Math.floor(window.innerHeight - box.top - EDGE_PX))}px`;
}

/**
 * A button that opens a small panel of actions (the disclosure pattern: aria-expanded, Escape and a click outside
 * close it, focus returns to the button). The panel stays inside the window, left to right and right to left.
 * Hand-rolled rather than a popover library: it sits in the navigation bar of every first load, where every kilobyte
 * counts against the web budget.
 */
export function MenuButton({
  label,
  trigger,
  children,
  testId,
}: {
  /** Accessible name of the button, e.g. 'Help & Tours'. */
  label: string;
  /** What the button shows (an icon or text); defaults to the label. */
  trigger?: ReactNode;
  children: (close: () => void) => ReactNode;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  // Placed before it is painted, and again when the window changes size (a phone turned, a keyboard shown).
  useLayoutEffect(() => {
    const element = panel.current;
    if (!open || !element) return;
    const place = () => keepOnScreen(element);
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <Wrapper ref={wrapper}>
      <Button
        ref={button}
        type="button"
        variant="ghost"
        compact
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={trigger ? label : undefined}
        onClick={() => setOpen((value) => !value)}
        data-testid={testId}
      >
        {trigger ?? label}
      </Button>
      {open ? (
        <Panel ref={panel} id={panelId} role="group" aria-label={label}>
          {children(close)}
        </Panel>
      ) : null}
    </Wrapper>
  );
}
