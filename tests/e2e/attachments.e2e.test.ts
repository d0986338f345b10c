import { eventually, makeDocx, makePdf, makePng } from '@kasa/test-kit';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { imagePartsOf, type FakeRequest } from '../support/fakeOpenAI';
import { usePlatformWithFakeProvider } from '../support/fakeProviderPlatform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat, upgradeToPro } from './pages/people';
import { PHONE_VIEWPORT, WIDTHS, onScreen, sidewaysOverflow, type Viewport } from './pages/screens';

// Images and documents in the chat, through the built platform: the provider is a fake that sees images
// (FAKE_VISION), so what the model received can be checked.
const world = usePlatformWithFakeProvider({ FAKE_VISION: 'true' });
let browser: Browser;
const contexts = new TestContexts();

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(() => contexts.closeAll());

async function openPage(viewport?: Viewport): Promise<Page> {
  return contexts.newPage(browser, { acceptDownloads: true, ...(viewport ? { viewport } : {}) });
}

const PHOTO = makePng(64, 48, [20, 120, 200]);
/** A phone held in one hand (tests/e2e/phone.e2e.test.ts checks the layout at this width). */
const PHONE = PHONE_VIEWPORT;
const NOTES = 'Cocoa exports rose by 12% in the third quarter.\n';
const REPORT = makePdf(['Gold output fell 4% in October.', 'Fishing catches held steady.']);
const GUIDE = makeDocx([
  { heading: 'Markets', paragraphs: ['Kejetia is one of the largest markets in West Africa.'] },
  { heading: 'Transport', paragraphs: ['Trotros leave from Kejetia station.', 'Taxis wait outside.'] },
]);
const systemOf = (request: FakeRequest) =>
  String(request.body.messages.find((message) => message.role === 'system')?.content ?? '');

describe('images and documents in the chat', () => {
  it.each(WIDTHS)('shows a Free person what Pro adds, and uploads nothing, at %s', async (_width, viewport) => {
    const page = await contexts.newPage(browser, { viewport });
    const { baseUrl } = world.platform;
    await signUpToChat(page, baseUrl);
    const chat = new ChatPage(page);
    expect(await chat.attachInput().count()).toBe(0);
    expect(await onScreen(chat.attachLocked())).toBe('on screen');
    await chat.attachLocked().click();
    const note = chat.attachmentsUpgrade();
    await note.getByText(/part of the Pro plan/).waitFor();
    const upgrade = note.getByRole('link', { name: 'See plans and upgrade' });
    expect(await upgrade.getAttribute('href')).toBe('/pricing');
    expect(await onScreen(upgrade)).toBe('on screen');
    expect(await chat.attachLocked().getAttribute('aria-expanded')).toBe('true');
    expect(await sidewaysOverflow(page)).toBe(0);
  });

  it.each(WIDTHS)(
    'sends a photo and two documents with a message: the model gets all three, and they stay with the message, at %s',
    async (_width, viewport) => {
      const page = await openPage(viewport);
      const { baseUrl } = world.platform;
      await signUpToChat(page, baseUrl);
      await upgradeToPro(page, baseUrl);
      const chat = new ChatPage(page);

      // Picked files upload at once, each with its progress, and show their size when done.
      const uploads: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/api/chat/attachments')) uploads.push(request.url());
      });
      await chat.attachInput().setInputFiles([
        { name: 'harbour.png', mimeType: 'image/png', buffer: PHOTO },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) },
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: REPORT },
      ]);
      await chat.waitForUploads(3);
      expect(uploads).toHaveLength(3);
      expect(await chat.pendingAttachments().nth(0).innerText()).toContain('harbour.png');
      expect(await chat.pendingAttachments().nth(1).innerText()).toMatch(/notes\.txt\s+\d+ bytes/);
      expect(await chat.pendingAttachments().nth(2).innerText()).toMatch(/report\.pdf\s+\d+ bytes/);
      // Send stays in sight, and so does each chip (on a phone the chips are a row that scrolls sideways), and the
      // page does not scroll sideways.
      expect(await onScreen(chat.sendButton())).toBe('on screen');
      for (let n = 0; n < 3; n += 1) {
        await chat.pendingAttachments().nth(n).scrollIntoViewIfNeeded();
        expect(await onScreen(chat.pendingAttachments().nth(n))).toBe('on screen');
        expect(await onScreen(chat.sendButton())).toBe('on screen');
      }
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // Sent with the message: its ids go with it, and the composer is empty again.
      const posted = page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith('/messages'));
      await chat.send('What do these show?');
      const body = (await posted).postDataJSON() as { attachmentIds?: string[] };
      expect(body.attachmentIds).toHaveLength(3);
      expect(await chat.waitForReplyEnd()).toBe('complete');
      expect(await chat.pendingAttachments().count()).toBe(0);
      await chat.messageAttachments().nth(2).waitFor();
      expect(await chat.messageAttachments().count()).toBe(3);

      // The model saw the image as an image and read the documents' text, each part labelled for citation.
      const request = world.provider.requests.at(-1)!;
      expect(imagePartsOf(request)).toEqual([expect.objectContaining({ url: expect.stringMatching(/^data:image\//) })]);
      expect(systemOf(request)).toContain('Cocoa exports rose by 12% in the third quarter.');
      expect(systemOf(request)).toContain('[notes.txt');
      expect(systemOf(request)).toContain('[report.pdf, p. 1]\nGold output fell 4% in October.');
      expect(systemOf(request)).toContain('[report.pdf, p. 2]\nFishing catches held steady.');

      // After a reload the message still carries them: the photo's thumbnail loads, and Save gives back the file.
      await page.reload();
      await chat.messageAttachments().nth(2).waitFor();
      const thumbnail = chat.messageAttachments().first().locator('img');
      await thumbnail.waitFor();
      await eventually(async () => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), {
        timeoutMs: 10_000,
        what: 'the thumbnail of harbour.png',
      });
      const saved = page.waitForEvent('download');
      await chat.messageAttachments().nth(1).getByRole('button', { name: 'Save notes.txt' }).click();
      const download = await saved;
      expect(download.suggestedFilename()).toBe('notes.txt');
      expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(NOTES);
      await thumbnail.scrollIntoViewIfNeeded();
      expect(await onScreen(thumbnail)).toBe('on screen');
      expect(await sidewaysOverflow(page)).toBe(0);
    },
  );

  it.each(WIDTHS)('sends a pasted image with the message, as a picked one, at %s', async (_width, viewport) => {
    const page = await openPage(viewport);
    const { baseUrl } = world.platform;
    await signUpToChat(page, baseUrl);
    await upgradeToPro(page, baseUrl);
    const chat = new ChatPage(page);

    // A screenshot pasted into the message field: the composer takes it (nothing is pasted as text) and uploads it.
    expect(await chat.pasteFiles([{ name: 'image.png', type: 'image/png', bytes: PHOTO }])).toBe(true);
    await chat.waitForUploads(1);
    expect(await chat.pendingAttachments().first().innerText()).toContain('image.png');
    expect(await chat.composer().inputValue()).toBe('');

    await chat.send('What colour is this?');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.messageAttachments().first().waitFor();
    expect(imagePartsOf(world.provider.requests.at(-1)!)).toEqual([
      expect.objectContaining({ url: expect.stringMatching(/^data:image\/png/) }),
    ]);
  });

  it.each(WIDTHS)(
    "reads a Word document section by section, and marks the reply's citations of it, at %s",
    async (_width, viewport) => {
      const page = await openPage(viewport);
      const { baseUrl } = world.platform;
      await signUpToChat(page, baseUrl);
      await upgradeToPro(page, baseUrl);
      const chat = new ChatPage(page);
      const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
      await chat.attachInput().setInputFiles({ name: 'guide.docx', mimeType: docx, buffer: GUIDE });
      await chat.waitForUploads(1);
      expect(await chat.pendingAttachments().first().innerText()).toMatch(/guide\.docx\s+[\d.,]+ (bytes|KB)/);

      // The answer cites the document, and a file that is not in the conversation.
      world.provider.mode = {
        kind: 'ok',
        text: 'Trotros leave from Kejetia station [guide.docx, § 2]. Fares rose too [budget.pdf, p. 4].',
      };
      await chat.send('How do I get around Kumasi?');
      expect(await chat.waitForReplyEnd()).toBe('complete');
      expect(await chat.messageAttachments().first().innerText()).toContain('guide.docx');

      // The model read each section under the label to cite it by.
      const system = systemOf(world.provider.requests.at(-1)!);
      expect(system).toContain('[guide.docx, § 1]\nMarkets\nKejetia is one of the largest markets in West Africa.');
      expect(system).toContain(
        '[guide.docx, § 2]\nTransport\nTrotros leave from Kejetia station.\nTaxis wait outside.',
      );

      // The person reads the citation as written, marked (once the markdown renderer has loaded: the first reply of
      // a page may show as plain text until then) as one of the conversation's files; the other stays text.
      await chat.citations().first().waitFor();
      expect(await chat.lastReplyText()).toBe(
        'Trotros leave from Kejetia station [guide.docx, § 2]. Fares rose too [budget.pdf, p. 4].',
      );
      expect(await chat.citations().count()).toBe(1);
      expect(await chat.citations().first().innerText()).toBe('[guide.docx, § 2]');
      expect(await chat.citations().first().getAttribute('data-source')).toBe('guide.docx');
      // Once the reply's markdown has settled (the renderer swaps the plain text for it, which moves the lines).
      const seen = await eventually(
        async () => {
          const where = await onScreen(chat.citations().first());
          return where === 'on screen' ? where : undefined;
        },
        { timeoutMs: 5_000, what: 'the citation on screen' },
      ).catch(() => onScreen(chat.citations().first()));
      expect(seen).toBe('on screen');
      expect(await sidewaysOverflow(page)).toBe(0);
    },
  );

  it('on a phone, accepts dropped files, removes one on request, and refuses what is too large before uploading it', async () => {
    // Upgraded on a wide screen (the plan shows in the sidebar, a drawer on a phone), then held as a phone.
    const page = await openPage();
    const { baseUrl } = world.platform;
    await signUpToChat(page, baseUrl);
    await upgradeToPro(page, baseUrl);
    await page.setViewportSize(PHONE);
    const chat = new ChatPage(page);

    // Dropped on the composer.
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['first draft'], 'draft.md', { type: 'text/markdown' }));
      return transfer;
    });
    await chat.composerForm().dispatchEvent('dragover', { dataTransfer: dropped });
    await chat.composerForm().dispatchEvent('drop', { dataTransfer: dropped });
    const draft = chat.pendingAttachments().filter({ hasText: 'draft.md' });
    await eventually(async () => (await draft.getAttribute('data-state')) === 'ready', {
      timeoutMs: 15_000,
      what: 'draft.md uploaded',
    });

    // Removed before sending: it leaves the composer (and the service deletes it).
    const deleted = page.waitForRequest(
      (req) => req.method() === 'DELETE' && req.url().includes('/api/chat/attachments/'),
    );
    await draft.getByRole('button', { name: 'Remove draft.md' }).click();
    await deleted;
    expect(await chat.pendingAttachments().count()).toBe(0);

    // Over the image limit (10 MB): refused in the composer, never uploaded.
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/chat/attachments')) uploads.push(request.url());
    });
    await chat.attachInput().setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PHOTO, Buffer.alloc(10 * 1024 * 1024)]),
    });
    const huge = chat.pendingAttachments().filter({ hasText: 'huge.png' });
    await huge.getByRole('alert').getByText('This image is over 10 MB, the largest an image can be.').waitFor();
    expect(await huge.getAttribute('data-state')).toBe('failed');
    expect(uploads).toEqual([]);
    // The chips fit the phone's width: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // A refused file does not hold Send back.
    await chat.composer().fill('Hello');
    expect(await chat.sendButton().isEnabled()).toBe(true);
  });
});
