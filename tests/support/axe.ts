import fs from 'node:fs';
import type { Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (WCAG 2.0–2.2 A and AA rules) on the page as it is now and returns the serious and critical
 * violations, each with the selectors of the elements at fault, so a failing test says what to fix.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated rather than added as a <script>: the pages' Content-Security-Policy admits no inline scripts.
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
    }
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
