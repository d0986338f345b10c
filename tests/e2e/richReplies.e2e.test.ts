import { eventually } from '@kasa/test-kit';
import type { Browser, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat } from './pages/people';

/**
 * Rich replies in the chat, in real Chromium against the built platform, with a fake AI provider whose answer the
 * test writes: a TypeScript block comes highlighted in the theme's token colours, inline and display maths come as
 * KaTeX (dollar amounts stay text), a Mermaid block comes as a diagram in the theme's colours, and a task list as
 * disabled checkboxes on their text's line — on a desktop and a phone, light and dark. KaTeX, Mermaid and
 * highlight.js are not part of the page's first load: they arrive with the reply that needs them.
 */
let browser: Browser;
let platform: RunningPlatform;
const provider = new FakeOpenAI();
const contexts = new TestContexts();

beforeAll(async () => {
  await provider.start();
  [browser, platform] = await Promise.all([launchBrowser(), startPlatform(fakeProviderEnv(provider))]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await provider.stop();
});

afterEach(() => contexts.closeAll());

const CODE = [
  'export function area(radius: number): number {',
  '  // The area of a circle',
  '  return Math.PI * radius ** 2;',
  '}',
].join('\n');

const REPLY = [
  'Here is the function:',
  '',
  '```ts',
  CODE,
  '```',
  '',
  'The area is $A = \\pi r^2$, and a ticket costs $5 and $10 with a bag.',
  '',
  '$$',
  '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
  '$$',
  '',
  '```mermaid',
  'graph TD',
  '  Q[Question] --> M{Maths?}',
  '  M -->|yes| K[KaTeX]',
  '  M -->|no| T[Text]',
  '```',
  '',
  '- [x] Write the function',
  '- [ ] Draw the diagram',
].join('\n');

/** The lazy chunks of the chat remote that a rich reply brings (src/markdown: webpackChunkName of each import()). */
const LAZY_CHUNKS = ['hljs-core', 'hljs-typescript', 'katex', 'mermaid'];
const chunkOf = (url: string) => /\/remotes\/chat\/([a-z-]+)\.[0-9a-f]{8}\.js$/.exec(new URL(url).pathname)?.[1];

/** The token colours of src/markdown/CodeBlock.tsx (CODE_COLOURS), as the browser computes them. */
const KEYWORD_COLOUR = { light: 'rgb(124, 58, 237)', dark: 'rgb(196, 181, 253)' };

/** The value of a theme token on the page's root element, as an rgb() colour. */
function rootColour(page: Page, token: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, token);
}

/** For each task item: whether its checkbox's middle lies within its text's first line, and left of the text. */
function taskLayout(content: Locator) {
  return content.locator('li.task-list-item').evaluateAll((items) =>
    items.map((item) => {
      const label = item.querySelector(':scope > label')!;
      const box = label.querySelector('input')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(label);
      range.setStartAfter(label.querySelector('input')!);
      const line = range.getClientRects()[0]!;
      const middle = box.top + box.height / 2;
      return {
        text: label.textContent,
        sameLine: middle >= line.top && middle <= line.bottom,
        before: box.right <= line.left + 1,
      };
    }),
  );
}

describe.each([
  ['a desktop', { width: 1280, height: 900 }],
  ['a phone', { width: 375, height: 812 }],
])('rich replies on %s', (_label, viewport) => {
  it.each(['light', 'dark'] as const)(
    'shows highlighted code, maths, a diagram and a task list in the %s theme',
    async (mode) => {
      const page = await contexts.newPage(browser, { viewport, colorScheme: mode });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.baseUrl });
      const chunks: string[] = [];
      page.on('request', (request) => {
        const chunk = chunkOf(request.url());
        if (chunk) chunks.push(chunk);
      });
      await signUpToChat(page, platform.baseUrl);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(mode === 'dark');
      // Nothing heavy comes with the page itself.
      expect(chunks.filter((chunk) => LAZY_CHUNKS.includes(chunk))).toEqual([]);

      const chat = new ChatPage(page);
      provider.mode = { kind: 'ok', text: REPLY, delayMs: 5 };
      await chat.send('Show me the area of a circle, with maths, a diagram and a checklist.');
      expect(await chat.waitForReplyEnd()).toBe('complete');
      const content = chat.lastReply().getByTestId('message-content');

      // The code block: highlight.js's token spans, in the theme's colour for keywords; Copy copies the code as written.
      const code = content.getByTestId('highlighted-code');
      await code.waitFor();
      expect(await code.getAttribute('data-language')).toBe('ts');
      expect(await code.locator('span[class^="hljs-"]').count()).toBeGreaterThan(3);
      const keyword = code.locator('.hljs-keyword').first();
      expect(await keyword.innerText()).toBe('export');
      expect(await keyword.evaluate((el) => getComputedStyle(el).color)).toBe(KEYWORD_COLOUR[mode]);
      expect(await code.locator('.hljs-comment').innerText()).toBe('// The area of a circle');
      expect(await code.innerText()).toBe(CODE);
      await content.getByRole('button', { name: 'Copy code' }).first().click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);

      // Maths: KaTeX for the inline formula and for the display one; the dollar amounts are left as text.
      await eventually(async () => (await content.locator('.katex-display .katex').count()) === 1, {
        timeoutMs: 15_000,
        what: 'display maths rendered by KaTeX',
      });
      const inline = content.locator('p .katex:not(.katex-display .katex)');
      expect(await inline.count()).toBe(1);
      expect(await inline.locator('annotation').textContent()).toBe('A = \\pi r^2');
      expect(await content.locator('.katex-display annotation').textContent()).toBe(
        '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
      );
      expect(await content.innerText()).toContain(', and a ticket costs $5 and $10 with a bag.');
      expect(await content.getByTestId('math-source').count()).toBe(0);
      // KaTeX's own fonts (from the chat remote's build) draw the formulas.
      const katexFontLoaded = () =>
        page.evaluate(() =>
          [...document.fonts].some(
            (font) => font.family.replace(/"/g, '') === 'KaTeX_Main' && font.status === 'loaded',
          ),
        );
      await eventually(katexFontLoaded, {
        timeoutMs: 10_000,
        what: "KaTeX's fonts",
      });

      // The diagram: an SVG drawn by Mermaid once the reply is complete, its nodes in the theme's colours.
      const diagram = content.getByTestId('mermaid-diagram');
      await eventually(async () => (await diagram.getAttribute('data-state')) === 'drawn', {
        timeoutMs: 30_000,
        what: 'the Mermaid diagram to be drawn',
      });
      const svg = diagram.locator('svg').first();
      expect(await svg.isVisible()).toBe(true);
      expect(await svg.locator('.node').count()).toBe(4);
      expect(await svg.textContent()).toContain('KaTeX');
      const nodeFill = await svg
        .locator('.node rect, .node polygon, .node path')
        .first()
        .evaluate((el) => getComputedStyle(el).fill);
      expect(nodeFill).toBe(await rootColour(page, '--kasa-surface-muted'));
      const box = await svg.boundingBox();
      expect(box!.width).toBeGreaterThan(100);
      expect(box!.width).toBeLessThanOrEqual(viewport.width);

      // The task list: disabled checkboxes named by their items' text, on the same line as it.
      const done = content.getByRole('checkbox', { name: 'Write the function' });
      const todo = content.getByRole('checkbox', { name: 'Draw the diagram' });
      expect(await done.isChecked()).toBe(true);
      expect(await todo.isChecked()).toBe(false);
      expect(await done.isDisabled()).toBe(true);
      expect(await todo.isDisabled()).toBe(true);
      expect(await taskLayout(content)).toEqual([
        { text: 'Write the function', sameLine: true, before: true },
        { text: 'Draw the diagram', sameLine: true, before: true },
      ]);

      // What the reply needed arrived with it, each grammar and library once.
      expect(LAZY_CHUNKS.filter((chunk) => !chunks.includes(chunk))).toEqual([]);
      expect(chunks.filter((chunk) => chunk === 'mermaid')).toHaveLength(1);

      // Nothing serious for axe (wherever the list is scrolled: "Jump to latest" sits between the list and the
      // composer, covering nothing), and nothing scrolls sideways.
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    },
  );
});
