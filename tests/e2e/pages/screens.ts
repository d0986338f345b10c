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
