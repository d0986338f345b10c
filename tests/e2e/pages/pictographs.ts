import type { Page } from 'playwright-core';

/**
 * The emoji pictographs the page shows as text (icons must be SVG: an emoji renders as an empty box where no emoji
 * font is installed, as on Debian's headless Chromium). ©, ® and ™ are ordinary text in every font and not counted.
 */
export function pictographsOn(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.body.innerText.matchAll(/(?![©®™])\p{Extended_Pictographic}/gu), (match) => match[0]),
  );
}
