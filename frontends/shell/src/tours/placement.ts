export interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

export type Placement = 'top' | 'bottom' | 'left' | 'right' | 'center';

const MARGIN = 12;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/**
 * Where a tour card goes: on the preferred side of its target when it fits there, else on the other side, else
 * beside it; on a phone (no room at the sides) above or below. A card never covers its target when the viewport
 * has room for both; without a target it is centred.
 */
export function placeCard({
  target,
  card,
  viewport,
  preferred,
  gap,
}: {
  target: Rect | null;
  card: { width: number; height: number };
  viewport: { width: number; height: number };
  preferred: Placement;
  gap: number;
}): { top: number; left: number; side: Placement } {
  const centredLeft = clamp((viewport.width - card.width) / 2, MARGIN, viewport.width - card.width - MARGIN);
  if (!target || preferred === 'center') {
    return {
      top: clamp((viewport.height - card.height) / 2, MARGIN, viewport.height),
      left: centredLeft,
      side: 'center',
    };
  }
  const bottom = target.top + target.height;
  const right = target.left + target.width;
  const alongX = clamp(target.left + target.width / 2 - card.width / 2, MARGIN, viewport.width - card.width - MARGIN);
  const alongY = clamp(
    target.top + target.height / 2 - card.height / 2,
    MARGIN,
    viewport.height - card.height - MARGIN,
  );

  const candidates: Record<Exclude<Placement, 'center'>, { fits: boolean; top: number; left: number }> = {
    bottom: { fits: bottom + gap + card.height <= viewport.height - MARGIN, top: bottom + gap, left: alongX },
    top: { fits: target.top - gap - card.height >= MARGIN, top: target.top - gap - card.height, left: alongX },
    right: { fits: right + gap + card.width <= viewport.width - MARGIN, top: alongY, left: right + gap },
    left: { fits: target.left - gap - card.width >= MARGIN, top: alongY, left: target.left - gap - card.width },
  };
  const opposite = { bottom: 'top', top: 'bottom', left: 'right', right: 'left' } as const;
  const order = [preferred, opposite[preferred], 'bottom', 'top', 'right', 'left'] as const;
  for (const side of order) {
    const candidate = candidates[side];
    if (candidate.fits) return { top: candidate.top, left: candidate.left, side };
  }
  // No side has room (a tall target on a small screen): use the viewport edge farther from the target.
  const roomAbove = target.top;
  const roomBelow = viewport.height - bottom;
  return roomBelow >= roomAbove
    ? { top: viewport.height - card.height - MARGIN, left: centredLeft, side: 'bottom' }
    : { top: MARGIN, left: centredLeft, side: 'top' };
}
