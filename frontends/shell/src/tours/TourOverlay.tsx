import styled from '@emotion/styled';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../ui/controls';
import { placeCard, type Rect } from './placement';
import type { Tour } from './tours';

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
  font-size: 1.25rem;
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

/** One running tour: the step's card beside the element it explains, never on top of it. */
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
  const [target, setTarget] = useState<Rect | null>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const step = tour.steps[index]!;
  const isLast = index === tour.steps.length - 1;

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

  useEffect(() => {
    primary.current?.focus();
  }, [index]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
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
        <Close type="button" aria-label="Close tour" onClick={onClose}>
          ×
        </Close>
        <h2 id={titleId}>
          {step.icon ? <span aria-hidden="true">{step.icon} </span> : null}
          {step.title}
        </h2>
        <p>{step.description}</p>
        {step.action ? (
          <p>
            <em>{step.action}</em>
          </p>
        ) : null}
        <Footer>
          <Counter aria-live="polite">
            Step {index + 1} of {tour.steps.length}
          </Counter>
          <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
            <Button type="button" variant="ghost" compact onClick={onSkip}>
              Skip Tour
            </Button>
            <Button
              type="button"
              variant="secondary"
              compact
              disabled={index === 0}
              onClick={() => setIndex((i) => i - 1)}
            >
              Back
            </Button>
            <Button
              ref={primary}
              type="button"
              compact
              onClick={() => (isLast ? onComplete() : setIndex((i) => i + 1))}
            >
              {isLast ? 'Complete' : 'Next'}
            </Button>
          </div>
        </Footer>
      </Card>
    </>
  );
}
