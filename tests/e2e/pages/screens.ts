import type { Locator, Page } from 'playwright-core';
import { DESKTOP_VIEWPORT } from '../../support/browser';

/** A phone held in one hand, the narrowest screen the web app is laid out for (tests/e2e/phone.e2e.test.ts). */
export const PHONE_VIEWPORT = { width: 375, height: 740 };

/** The widths the browser tests run the chat at, for `describe.each`/`it.each`: a desktop window and a phone. */
export const WIDTHS = [
  ['1280 px', DESKTOP_VIEWPORT],
  ['375 px', PHONE_VIEWPORT],
] as const;

export type Viewport = { width: number; height: number };

export const isPhone = (viewport: Viewport) => viewport.width < 768;

/**
 * Whether a person sees the element: 'on screen' when all of it is inside the window and nothing covers its
 * middle, else what is wrong (where it is, or what covers it), so a failure says what to fix.
 */
export function onScreen(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const box = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    if (r.width === 0 || r.height === 0) return `not drawn (${box})`;
    if (r.left < -1 || r.top < -1 || r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1)
      return `outside the ${window.innerWidth}×${window.innerHeight} window (${box})`;
    // The middle of its first box: a link that wraps onto two lines has one box a line.
    const first = el.getClientRects()[0] ?? r;
    const hit = document.elementFromPoint(first.left + first.width / 2, first.top + first.height / 2);
    if (hit && (hit === el || el.contains(hit))) return 'on screen';
    return `covered by ${hit ? `${hit.tagName.toLowerCase()} ${hit.getAttribute('data-testid') ?? ''}` : 'nothing'}`;
  });
}

/** How much wider than the window the page is (0 when nothing makes it scroll sideways). */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);

/** The smallest comfortable touch target (WCAG 2.5.5, Apple's and Google's guidelines): 44 CSS px. */
export const TOUCH_PX = 44;

/**
 * The buttons, links and selects inside `scope` that a person sees in the window (in sight, drawn, not hidden for
 * screen readers only) and that are smaller than `px` in either direction, each described as its name and size, so a
 * failure says what to fix. Links inside a message's text are left out: they are words of a sentence (WCAG 2.5.8's
 * inline exception).
 */
export function smallTargets(scope: Locator, px = TOUCH_PX): Promise<string[]> {
  return scope.evaluate((root, min) => {
    const controls = Array.from(
      root.querySelectorAll<HTMLElement>('a[href], button, select, [role="button"], [role="tab"]'),
    );
    return controls
      .filter((el) => !el.closest('[data-testid="message-content"]'))
      .filter((el) => el.checkVisibility({ visibilityProperty: true }))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 1 && box.height > 1)
      .filter(({ box }) => box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth)
      .filter(({ box }) => box.width < min - 0.5 || box.height < min - 0.5)
      .map(({ el, box }) => {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        return `${el.tagName.toLowerCase()} "${name}": ${Math.round(box.width)}×${Math.round(box.height)}`;
      });
  }, px);
}

/** Whether all of the element's box is inside the window, else where it is. */
export function insideWindow(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    return inside
      ? 'inside'
      : `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)} in ${innerWidth}×${innerHeight}`;
  });
}
