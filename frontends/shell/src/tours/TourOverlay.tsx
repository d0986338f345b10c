import styled from '@emotion/styled';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Button, ICON, X } from '@kasa/ui';
import { placeCard, type Rect } from './placement';
import type { Tour } from './tours';
import { TOUR_STEPS } from './tourSteps';
import { useT, type MessageId } from '../i18n/useT';

const CARD_WIDTH = 384;
const HIGHLIGHT_PADDING = 6;

const Backdrop = styled.div<{ dim: boolean }>`
  position: fixed;
  inset: 0;
  z-index: 1000;
  background: ${({ dim }) => (dim ? 'rgba(2, 6, 23, 0.6)' : 'transparent')};
`;

const Highlight = styled.div`
  position: fixed;
  z-index: 1001;
  border-radius: var(--kasa-radius);
  box-shadow:
    0 0 0 3px var(--kasa-focus),
    0 0 0 9999px rgba(2, 6, 23, 0.6);
  pointer-events: none;
  transition: all 0.2s ease;
`;

const Card = styled.div`
  position: fixed;
  z-index: 1002;
  width: ${CARD_WIDTH}px;
  max-width: calc(100vw - 24px);
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  box-shadow: var(--kasa-shadow);
  h2 {
    margin: 0 2rem 0.5rem 0;
    font-size: 1.125rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
`;

const Close = styled.button`
  position: absolute;
  top: 0.5rem;
  right: 0.5rem;
  width: 2.25rem;
  height: 2.25rem;
  border: 0;
  border-radius: var(--kasa-radius);
  background: transparent;
  color: var(--kasa-fg);
  display: inline-grid;
  place-items: center;
  cursor: pointer;
  &:hover {
    background: var(--kasa-surface-muted);
  }
`;

const Footer = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  justify-content: space-between;
`;

const Counter = styled.span`
  color: var(--kasa-muted);
  font-size: 0.875rem;
`;

function targetElement(name: string | undefined): HTMLElement | null {
  if (!name) return null;
  const element = document.querySelector<HTMLElement>(`[data-tour="${name}"]`);
  if (!element) return null;
  const rect = element.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0 ? element : null;
}

const toRect = (r: DOMRect): Rect => ({ top: r.top, left: r.left, width: r.width, height: r.height });

/** The controls Tab moves between inside the card. */
function focusables(container: HTMLElement): HTMLElement[] {
  return [
    ...container.querySelectorAll<HTMLElement>('button:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])'),
  ];
}

/**
 * One running tour: the step's card beside the element it explains, never on top of it. A modal dialog: focus moves
 * into it when it shows (to Next or Complete) and stays inside while Tab cycles; Escape closes it like X; when it
 * closes, focus goes back to where it was before the tour opened.
 */
export function TourOverlay({
  tour,
  onComplete,
  onSkip,
  onClose,
}: {
  tour: Tour;
  onComplete: () => void;
  onSkip: () => void;
  onClose: () => void;
}) {
  const [index, setIndex] = useState(0);
  const t = useT();
  const [target, setTarget] = useState<Rect | null>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const steps = TOUR_STEPS[tour.id];
  const step = steps[index]!;
  const isLast = index === steps.length - 1;
  /** A step's text in the current language (tourMessages.test.ts keeps the English catalogue equal to TOUR_STEPS). */
  const stepText = (field: 'title' | 'description' | 'action') => t(`tour.${tour.id}.${step.id}.${field}` as MessageId);
  const placed = position !== null;

  // Where focus was when the tour opened, given back when it closes (however it closes).
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      if (before && before.isConnected && before !== document.body) before.focus({ preventScroll: true });
    };
  }, []);

  const measure = useCallback(() => {
    const element = targetElement(step.target);
    const rect = element ? toRect(element.getBoundingClientRect()) : null;
    setTarget(rect);
    const box = card.current?.getBoundingClientRect();
    if (!box) return;
    setPosition(
      placeCard({
        target: rect,
        card: { width: box.width, height: box.height },
        viewport: { width: window.innerWidth, height: window.innerHeight },
        preferred: step.position,
        gap: HIGHLIGHT_PADDING + 8,
      }),
    );
  }, [step]);

  useLayoutEffect(() => {
    targetElement(step.target)?.scrollIntoView({ block: 'center', inline: 'nearest' });
    measure();
  }, [step, measure]);

  // The card is hidden until it is placed, and a hidden element cannot take focus: focus once it shows.
  useEffect(() => {
    if (placed) primary.current?.focus({ preventScroll: true });
  }, [index, placed]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
        return;
      }
      if (event.key !== 'Tab' || !card.current) return;
      // aria-modal: Tab and Shift+Tab cycle through the card's controls, and focus that wandered off comes back.
      const inside = focusables(card.current);
      if (inside.length === 0) return;
      const first = inside[0]!;
      const last = inside[inside.length - 1]!;
      const current = document.activeElement;
      if (!card.current.contains(current)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && current === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && current === last) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    document.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [measure, onClose]);

  return (
    <>
      <Backdrop dim={!target} onClick={onSkip} data-testid="tour-backdrop" />
      {target ? (
        <Highlight
          aria-hidden="true"
          style={{
            top: target.top - HIGHLIGHT_PADDING,
            left: target.left - HIGHLIGHT_PADDING,
            width: target.width + HIGHLIGHT_PADDING * 2,
            height: target.height + HIGHLIGHT_PADDING * 2,
          }}
        />
      ) : null}
      <Card
        ref={card}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="tour-card"
        data-tour-id={tour.id}
        style={position ? { top: position.top, left: position.left } : { visibility: 'hidden', top: 0, left: 0 }}
      >
        <Close type="button" aria-label={t('tour.close')} onClick={onClose}>
          <X {...ICON} size={20} />
        </Close>
        <h2 id={titleId}>{stepText('title')}</h2>
        <p>{stepText('description')}</p>
        {step.action ? (
          <p>
            <em>{stepText('action')}</em>
          </p>
        ) : null}
        <Footer>
          <Counter aria-live="polite">{t('tour.step', { step: index + 1, count: steps.length })}</Counter>
          <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
            <Button type="button" variant="ghost" compact onClick={onSkip}>
              {t('tour.skip')}
            </Button>
            <Button
              type="button"
              variant="secondary"
              compact
              disabled={index === 0}
              onClick={() => setIndex((i) => i - 1)}
            >
              {t('tour.back')}
            </Button>
            <Button
              ref={primary}
              type="button"
              compact
              onClick={() => (isLast ? onComplete() : setIndex((i) => i + 1))}
            >
              {isLast ? t('tour.complete') : t('tour.next')}
            </Button>
          </div>
        </Footer>
      </Card>
    </>
  );
}
