import { eventually, makePng } from '@kasa/test-kit';
import type { Browser } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { imagePartsOf } from '../support/fakeOpenAI';
import { FAKE_REPLY, usePlatformWithFakeProvider } from '../support/fakeProviderPlatform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat, upgradeToPro } from './pages/people';
import { WIDTHS, onScreen, sidewaysOverflow } from './pages/screens';

// A photo in the chat when the only provider cannot see images (no FAKE_VISION: `fake-model` is of no family known
// to take them): the person is told so, and the provider gets the text alone.
const world = usePlatformWithFakeProvider({});
let browser: Browser;
const contexts = new TestContexts();

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(() => contexts.closeAll());

/** The first words of such a reply (services/chat/src/providers/providerChain.ts, NO_VISION_NOTICE.en). */
const NO_VISION_NOTICE =
  "I can't see images right now: none of the AI providers connected to this server sees images (an operator can " +
  'add one under AI providers). I have answered from your text only.';

describe('a photo when no provider sees images', () => {
  it.each(WIDTHS)(
    'says at the start of the reply that it answered from the text only, at %s',
    async (_width, viewport) => {
      const page = await contexts.newPage(browser, { viewport });
      const { baseUrl } = world.platform;
      await signUpToChat(page, baseUrl);
      await upgradeToPro(page, baseUrl);
      const chat = new ChatPage(page);
      await chat.attachInput().setInputFiles({ name: 'market.png', mimeType: 'image/png', buffer: makePng(32, 24) });
      await chat.waitForUploads(1);

      await chat.send('What is for sale in this photo?');
      expect(await chat.waitForReplyEnd()).toBe('complete');
      expect(await chat.lastReplyText()).toBe(`${NO_VISION_NOTICE}\n\n${FAKE_REPLY}`);
      // In sight once scrolled to (the stored reply takes the live one's place meanwhile).
      const notice = chat.lastReply().getByText(NO_VISION_NOTICE);
      let where = '';
      await eventually(
        async () => {
          await notice.scrollIntoViewIfNeeded({ timeout: 1_000 });
          return (where = await onScreen(notice)) === 'on screen';
        },
        { timeoutMs: 10_000, what: 'the notice in sight', context: () => where },
      );
      expect(await sidewaysOverflow(page)).toBe(0);

      // The provider got the question, and no image.
      const request = world.provider.requests.at(-1)!;
      expect(imagePartsOf(request)).toEqual([]);
      expect(JSON.stringify(request.body.messages)).toContain('What is for sale in this photo?');
    },
  );
});
