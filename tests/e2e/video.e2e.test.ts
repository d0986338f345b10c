import { connectDatabase, createLogger } from '@kasa/service-kit';
import { eventually } from '@kasa/test-kit';
import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { TestContexts, launchBrowser } from '../support/browser';
import { deleteQueues, startPlatform, type RunningPlatform } from '../support/platform';
import { AuthPage } from './pages/AuthPage';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat } from './pages/people';

/**
 * The Videos panel in the chat (Enterprise), in real Chromium at desktop and phone widths: start a video, watch it
 * queue and render with a live progress bar (Server-Sent Events), play it with its captions track, find it in the
 * list after a reload; a Free person is told what the Enterprise plan adds. The platform runs with espeak-ng and
 * ffmpeg hidden from its PATH, so the voice service makes the video with the engines shipped in npm packages
 * (eSpeak NG in WebAssembly, the static ffmpeg).
 */
const HIDDEN_PROGRAMS = new Set(['espeak-ng', 'espeak', 'ffmpeg', 'ffprobe']);
const run = randomUUID().slice(0, 8);
const AUTH_DB_NAME = `kasa_auth_video_e2e_${run}`;
const VIDEO_QUEUE = `kasa.voice.video.e2e-${run}`;
// Six sentences: long enough to render for a few seconds even on a quiet machine, so that the bar has values between.
const PROMPT =
  'Akwaaba! Welcome to Accra, the capital of Ghana. The markets open early in the morning. Traders set out kente ' +
  'cloth, fresh fish and ripe mangoes. By noon the streets are full of music and voices. In the evening, families ' +
  'gather by the sea at Labadi Beach.';

/**
 * A PATH without the hidden programs: each folder of PATH that holds one is replaced by a folder of links to
 * everything else in it.
 */
function pathWithout(hidden: Set<string>): { PATH: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-path-'));
  const folders = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const kept: string[] = [];
  folders.forEach((folder, i) => {
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      return;
    }
    if (!names.some((name) => hidden.has(name))) {
      kept.push(folder);
      return;
    }
    const copy = path.join(dir, String(i));
    fs.mkdirSync(copy);
    for (const name of names) if (!hidden.has(name)) fs.symlinkSync(path.join(folder, name), path.join(copy, name));
    kept.push(copy);
  });
  return { PATH: kept.join(path.delimiter), dir };
}

let platform: RunningPlatform;
let browser: Browser;
let authDb: Connection;
let pathDir: string;
const contexts = new TestContexts();

beforeAll(async () => {
  const restricted = pathWithout(HIDDEN_PROGRAMS);
  pathDir = restricted.dir;
  [platform, browser] = await Promise.all([
    startPlatform({ AUTH_DB_NAME, VOICE_VIDEO_QUEUE: VIDEO_QUEUE, PATH: restricted.PATH }),
    launchBrowser(),
  ]);
  authDb = await connectDatabase({
    url: process.env.MONGO_URL!,
    dbName: AUTH_DB_NAME,
    logger: createLogger({ service: 'video-e2e', version: 'test', level: 'silent' }),
    maxAttempts: 3,
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await authDb?.dropDatabase().catch(() => undefined);
  await authDb?.close();
  await deleteQueues(process.env.AMQP_URL, [VIDEO_QUEUE, `${VIDEO_QUEUE}.dlq`]);
  if (pathDir) fs.rmSync(pathDir, { recursive: true, force: true });
});

afterEach(() => contexts.closeAll());

async function openPage(width: number): Promise<Page> {
  return contexts.newPage(browser, { viewport: { width, height: width < 500 ? 740 : 860 } });
}

/** The Videos panel of the chat, opened from the sidebar (from the drawer on a phone). */
class VideosPanel {
  constructor(
    private readonly page: Page,
    private readonly phone: boolean,
  ) {}

  async open() {
    const chat = new ChatPage(this.page);
    if (this.phone) await chat.phoneToggle().click();
    await this.page.getByRole('button', { name: 'Videos' }).click();
    await this.panel().waitFor();
  }

  panel(): Locator {
    return this.page.getByTestId('videos-panel');
  }

  prompt() {
    return this.panel().getByLabel('What should the video say?');
  }

  start() {
    return this.panel().getByRole('button', { name: 'Make video' });
  }

  progress() {
    return this.panel().getByRole('progressbar');
  }

  player() {
    return this.panel().getByTestId('video-player');
  }

  items() {
    return this.panel().getByTestId('video-item');
  }
}

/** What the page's video element has loaded and its captions track. */
function playerState(page: Page) {
  return page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]');
    if (!video) return null;
    const track = video.textTracks[0];
    return {
      readyState: video.readyState,
      duration: video.duration,
      currentTime: video.currentTime,
      trackKind: track?.kind ?? null,
      trackMode: track?.mode ?? null,
      cues: track?.cues ? Array.from(track.cues, (cue) => (cue as VTTCue).text) : [],
    };
  });
}

/** Enterprise is sold by the sales team, not the checkout: set in the auth database, carried by a new sign-in. */
async function makeEnterprise(page: Page, person: { email: string; password: string }) {
  const updated = await authDb
    .collection('users')
    .updateOne({ email: person.email }, { $set: { subscriptionTier: 'enterprise' } });
  expect(updated.modifiedCount).toBe(1);
  await page.goto(`${platform.baseUrl}/api/auth/logout`);
  const auth = new AuthPage(page);
  await auth.open(platform.baseUrl);
  await auth.signIn(person);
  await page.waitForURL(`${platform.baseUrl}/chat`);
  await new ChatPage(page).userCard().getByText('Enterprise').waitFor({ state: 'attached' });
}

const lastLogs = () => platform.logs.slice(-20).join('\n');

describe('the Videos panel', () => {
  it('runs with the speech engine and encoder from npm (espeak-ng and ffmpeg are not on the PATH)', async () => {
    const status = (await (await fetch(`${platform.baseUrl}/api/voice/status`)).json()) as {
      engines: { name: string; available: boolean }[];
      encoder: { name: string; available: boolean };
    };
    const available = status.engines.filter((e) => e.available).map((e) => e.name);
    expect(available).toContain('espeak-ng-wasm');
    expect(available).not.toContain('espeak-ng');
    expect(status.encoder.available).toBe(true);
  });

  it.each([
    ['desktop', 1280],
    ['phone', 375],
  ])(
    'on a %s: an Enterprise person makes a video, watches its progress, plays it with captions, finds it after a reload',
    async (_name, width) => {
      const page = await openPage(width);
      const person = await signUpToChat(page, platform.baseUrl);
      await makeEnterprise(page, person);
      const videos = new VideosPanel(page, width < 500);
      await videos.open();
      await videos.panel().getByText('No videos yet.', { exact: false }).waitFor();

      await videos.prompt().fill(PROMPT);
      await videos.start().click();
      await videos.progress().waitFor({ timeout: 15_000 });
      // The bar, as the server pushes it: every value it showed until the video was ready.
      const seen = await page.evaluate(
        () =>
          new Promise<number[]>((resolve) => {
            const values: number[] = [];
            const look = () => {
              const bar = document.querySelector('[role="progressbar"]');
              if (!bar) return resolve(values);
              const now = Number(bar.getAttribute('aria-valuenow'));
              if (values.at(-1) !== now) values.push(now);
              setTimeout(look, 50);
            };
            look();
          }),
      );
      expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
      expect(new Set(seen).size).toBeGreaterThan(1);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);

      // Ready: it plays, with its captions as a track.
      await videos
        .player()
        .waitFor({ timeout: 60_000 })
        .catch((error: Error) => {
          throw new Error(`${error.message}\n${lastLogs()}`);
        });
      await page.evaluate(() => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]')!;
        video.muted = true;
        return video.play();
      });
      const played = await eventually(
        async () => {
          const state = await playerState(page);
          return state && state.readyState >= 2 && state.currentTime > 0 && state.cues.length > 0 && state;
        },
        { timeoutMs: 15_000, what: 'the video playing with its captions loaded' },
      );
      expect(played.duration).toBeGreaterThan(3);
      expect(played).toMatchObject({ trackKind: 'captions', trackMode: 'showing' });
      expect(played.cues).toEqual(expect.arrayContaining(['Akwaaba!', 'Welcome to Accra, the capital of Ghana.']));
      await videos.items().first().getByText('Ready').waitFor();

      // After a reload, the list has it, newest first, and it plays again.
      await page.reload();
      await new ChatPage(page).app().waitFor();
      await videos.open();
      await videos.items().first().getByText('Ready').waitFor();
      expect(await videos.items().count()).toBe(1);
      expect(await videos.items().first().innerText()).toContain('Akwaaba!');
      await videos.items().first().getByRole('button', { name: 'Play' }).click();
      await eventually(async () => ((await playerState(page))?.duration ?? 0) > 3, {
        timeoutMs: 15_000,
        what: 'the listed video loaded',
      });
      // The panel fits the screen: nothing overflows sideways.
      const overflow = await videos.panel().evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
    },
    180_000,
  );

  it('reads an Enterprise person’s reply aloud and offers "Make a video" of it, with the reply as the prompt', async () => {
    const page = await openPage(1280);
    const person = await signUpToChat(page, platform.baseUrl);
    const sendAndWait = async (text: string) => {
      const replies = (await page.getByTestId('message-assistant').count()) + 1;
      await page.locator('textarea').first().fill(text);
      await page.locator('textarea').first().press('Enter');
      await page.waitForFunction((count) => {
        const all = document.querySelectorAll('[data-testid="message-assistant"]');
        return all.length === count && all[count - 1]!.getAttribute('data-status') === 'complete';
      }, replies);
    };
    // Free: no such action.
    await sendAndWait('What is Kasa?');
    expect(await page.getByTestId('make-video').count()).toBe(0);

    await makeEnterprise(page, person);
    await sendAndWait('Say hello in Twi.');
    const reply = page.getByTestId('message-assistant').last();
    const replyText = (await reply.getByTestId('message-content').innerText()).trim();
    // Read aloud with no espeak-ng on the PATH: the engine shipped in the npm package speaks it.
    await reply.getByTestId('reply-audio-controls').getByRole('button', { name: /Play/ }).click();
    await eventually(
      async () =>
        page.evaluate(() => {
          const audio = document.querySelector<HTMLAudioElement>('audio[data-testid="reply-audio"]');
          return audio !== null && audio.currentTime > 0 && audio.duration > 0;
        }),
      { timeoutMs: 15_000, what: 'the reply read aloud' },
    );
    await reply.getByTestId('make-video').click();
    const videos = new VideosPanel(page, false);
    await videos.panel().waitFor();
    expect((await videos.prompt().inputValue()).trim()).toBe(replyText.slice(0, 2_000));
  }, 120_000);

  it('tells a Free person what the Enterprise plan adds and where to upgrade, without asking the video API', async () => {
    const page = await openPage(1280);
    const videoCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/video/')) videoCalls.push(request.url());
    });
    await signUpToChat(page, platform.baseUrl);
    const videos = new VideosPanel(page, false);
    await videos.open();
    const notice = videos.panel().getByTestId('video-upgrade');
    await notice.getByText('Videos are part of the Enterprise plan', { exact: false }).waitFor();
    await notice.getByRole('link', { name: 'See plans and upgrade' }).click();
    await page.waitForURL(`${platform.baseUrl}/pricing`);
    expect(videoCalls).toEqual([]);
  }, 120_000);
});
