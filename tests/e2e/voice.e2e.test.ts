import { eventually } from '@kasa/test-kit';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { TestContexts, launchBrowser } from '../support/browser';
import { fakeMicrophoneArgs } from '../support/fakeMicrophone';
import { FakeSpeechProvider } from '../support/fakeSpeechProvider';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat, upgradeToPro as upgradeToProFromPricing } from './pages/people';

/** What the fake speech-to-text provider answers: what the uploaded recording says. */
const HEARD = 'What is Kasa?';

let browser: Browser;
let platform: RunningPlatform;
const fake = new FakeSpeechProvider({ heard: HEARD, transcriptionDelayMs: 800 });
const contexts = new TestContexts();
let workDir: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-voice-e2e-'));
  await fake.start();
  [browser, platform] = await Promise.all([
    launchBrowser(),
    // Replies come from the offline provider (no chat provider is listed); speech-to-text from the fake.
    startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '5', OPENAI_API_KEY: 'sk-fake-voice', OPENAI_BASE_URL: fake.baseURL }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await fake.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => contexts.closeAll());

async function openPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
  return contexts.newPage(browser, { viewport });
}

const signUp = (page: Page) => signUpToChat(page, platform.baseUrl);
const upgradeToPro = (page: Page) => upgradeToProFromPricing(page, platform.baseUrl);

/** What the platform said last, for a wait that timed out. */
const lastLogs = () => platform.logs.slice(-20).join('\n');

describe('voice in the chat', () => {
  it('reads replies aloud in voice mode, with pause and speed, and sends a recording as a voice message', async () => {
    const page = await openPage();
    await signUp(page);
    await upgradeToPro(page);
    const chat = new ChatPage(page);
    await chat.languageSelect().selectOption('en');

    // Voice mode is a toggle, remembered across a reload.
    const toggle = chat.voiceModeToggle();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await chat.composer().waitFor();
    expect(await chat.voiceModeToggle().getAttribute('aria-pressed')).toBe('true');
    expect(await chat.languageSelect().inputValue()).toBe('en');

    // A typed message: the reply streams and is read aloud by itself, sentence by sentence.
    await chat.send('What is Kasa?');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    await chat.waitForAudioState('playing');
    const first = await chat.audioElement();
    // Read as it was made: one source that each sentence's audio is appended to.
    expect(first?.src).toMatch(/^blob:/);
    await eventually(async () => ((await chat.audioElement())?.currentTime ?? 0) > (first?.currentTime ?? 0) + 0.2, {
      timeoutMs: 15_000,
      intervalMs: 100,
      context: lastLogs,
      what: 'the spoken reply to advance',
    });

    // Pause holds the position; another speed applies to the audio; Play goes on from where it was.
    await chat.playPauseButton().click();
    await chat.waitForAudioState('paused');
    const paused = (await chat.audioElement())!;
    expect(paused.paused).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect((await chat.audioElement())!.currentTime).toBe(paused.currentTime);
    await chat.speedSelect().selectOption('1.5');
    expect((await chat.audioElement())!.playbackRate).toBe(1.5);
    await chat.playPauseButton().click();
    await chat.waitForAudioState('playing');
    await eventually(async () => ((await chat.audioElement())?.currentTime ?? 0) > paused.currentTime + 0.2, {
      timeoutMs: 15_000,
      intervalMs: 100,
      context: lastLogs,
      what: 'playback to resume',
    });
    expect((await chat.audioElement())!.playbackRate).toBe(1.5);
    expect(await page.evaluate(() => localStorage.getItem('kasa_chat_voice_speed'))).toBe('1.5');
    await chat.playPauseButton().click();
    await chat.waitForAudioState('paused');
    // The voice controls are labelled and keyboard-operable; nothing serious for axe to find.
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A recording sent as a file: transcribed by the provider in the chosen language, sent as a voice message.
    const wav = path.join(workDir, 'question.wav');
    execFileSync('espeak-ng', ['-w', wav, 'What is Kasa?']);
    const repliesBefore = await chat.replies().count();
    await chat.audioFileInput().setInputFiles(wav);
    await chat.voiceStatus().getByText('Transcribing…').waitFor();
    await chat.userMessages().nth(1).waitFor();
    const spoken = chat.userMessages().nth(1);
    expect(await spoken.getAttribute('data-type')).toBe('voice');
    expect(await spoken.getByTestId('message-content').innerText()).toBe(HEARD);
    await spoken.getByTestId('message-voice').getByText('Voice message').waitFor();
    await eventually(async () => (await chat.replies().count()) > repliesBefore, {
      timeoutMs: 15_000,
      intervalMs: 100,
      context: lastLogs,
      what: 'the answer to the voice message',
    });
    expect(await chat.waitForReplyEnd()).toBe('complete');
    expect(await chat.lastReplyText()).toContain('offline mode');
    expect(await chat.voiceStatus().innerText()).toBe('');

    // The provider got the recording itself and the language the person chose.
    expect(fake.uploads).toHaveLength(1);
    const upload = fake.uploads[0]!;
    expect(upload.contentType).toMatch(/^multipart\/form-data/);
    expect(upload.body.includes(fs.readFileSync(wav))).toBe(true);
    expect(upload.fields.language).toBe('en');

    // The service stored the transcript as a voice message.
    const sessionId = chat.sessionIdFromUrl();
    expect(sessionId).not.toBeNull();
    const stored = await page.evaluate(async (id) => {
      const token = localStorage.getItem('kasa_auth_token');
      const res = await fetch(`/api/chat/sessions/${id}`, { headers: { authorization: `Bearer ${token}` } });
      return (await res.json()) as { messages: { role: string; type: string; content: string }[] };
    }, sessionId);
    expect(stored.messages.filter((m) => m.role === 'user').map((m) => [m.type, m.content])).toEqual([
      ['text', 'What is Kasa?'],
      ['voice', HEARD],
    ]);

    // Voice mode read the new answer too.
    await chat.waitForAudioState('playing');

    // With the provider down, the person is told that transcription is unavailable, and nothing is sent.
    fake.failing = true;
    await chat.audioFileInput().setInputFiles(wav);
    await chat
      .voiceError()
      .getByText('Transcription is unavailable on this server. Type your message instead, or try again later.')
      .waitFor();
    expect(await chat.userMessages().count()).toBe(2);
    await chat.voiceError().getByRole('button', { name: 'Dismiss' }).click();
    await chat.voiceError().waitFor({ state: 'detached' });

    // Push to talk without the microphone permission says how to allow it.
    await chat.pushToTalk().click();
    await chat
      .voiceError()
      .getByText(/^Microphone access was denied\. Allow the microphone for this site/)
      .waitFor();
    expect(await chat.userMessages().count()).toBe(2);

    // On a phone the voice row wraps within the width.
    await page.setViewportSize({ width: 375, height: 740 });
    await chat.pushToTalk().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }, 120_000);

  it('records with push to talk where the browser has no speech recognition, and sends it as a voice message', async () => {
    // A microphone that hears a recording, allowed for the site. Headless chromium's own speech recognition has no
    // speech service behind it, so the page gets a browser without one (as Firefox is): push to talk then records
    // with MediaRecorder and sends the recording to Kasa's transcription.
    const wav = path.join(workDir, 'spoken.wav');
    execFileSync('espeak-ng', ['-w', wav, 'What is Kasa?']);
    const micBrowser = await launchBrowser({
      args: fakeMicrophoneArgs(wav),
    });
    try {
      const context = await micBrowser.newContext({ viewport: { width: 1280, height: 860 } });
      await context.grantPermissions(['microphone'], { origin: platform.baseUrl });
      await context.addInitScript(() => {
        delete (window as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition;
        delete (window as { SpeechRecognition?: unknown }).SpeechRecognition;
      });
      const page = await context.newPage();
      await signUp(page);
      await upgradeToPro(page);
      const chat = new ChatPage(page);
      await chat.languageSelect().selectOption('fr');
      fake.failing = false;
      const uploadsBefore = fake.uploads.length;

      // Held down, it listens; let go, it transcribes and sends. The button is disabled while the composer is busy
      // (a press then does nothing), and the row may still move as the page settles: the press waits for an enabled
      // button and lands where it is now (hover waits until it is visible and stable and moves the pointer there).
      const talk = chat.pushToTalk();
      await eventually(() => talk.isEnabled(), { what: 'push to talk to be enabled', timeoutMs: 30_000 });
      await talk.hover();
      await page.mouse.down();
      await chat
        .voiceStatus()
        .getByText(/^Listening…/)
        .waitFor()
        .catch(async (err: Error) => {
          // Say what the page showed instead: a microphone or recorder failure appears as the voice error.
          const shown = await page.getByTestId('voice-error').allInnerTexts();
          const pressed = await talk.getAttribute('aria-pressed');
          throw new Error(`${err.message}\nvoice error shown: ${shown.join(' | ') || 'none'}; aria-pressed ${pressed}`);
        });
      expect(await talk.getAttribute('aria-pressed')).toBe('true');
      await new Promise((r) => setTimeout(r, 1_500));
      await page.mouse.up();
      // Released, it stops listening; "Transcribing…" may last only a few milliseconds with a fast transcription,
      // too short to be seen reliably, so what it leads to is checked: the voice message and its reply.
      await eventually(async () => (await talk.getAttribute('aria-pressed')) === 'false', {
        what: 'push to talk to be released',
      });

      const spoken = chat.userMessages().first();
      await spoken.waitFor();
      expect(await spoken.getAttribute('data-type')).toBe('voice');
      expect(await spoken.getByTestId('message-content').innerText()).toBe(HEARD);
      expect(await chat.waitForReplyEnd()).toBe('complete');
      expect(fake.uploads.length).toBe(uploadsBefore + 1);
      const upload = fake.uploads.at(-1)!;
      // A WebM (Opus) recording of about a second and a half, in the language the person chose.
      expect(upload.body.includes(Buffer.from('Content-Type: audio/webm'))).toBe(true);
      expect(upload.body.length).toBeGreaterThan(4_000);
      expect(upload.fields.language).toBe('fr');
    } finally {
      await micBrowser.close();
    }
  }, 120_000);

  it('shows a Free user that voice is part of the Pro plan, with the way to upgrade', async () => {
    const page = await openPage({ width: 375, height: 740 });
    await signUp(page);
    const chat = new ChatPage(page);
    const notice = chat.voiceUpgrade();
    await notice.getByText('Voice is part of the Pro plan.').waitFor();
    expect(await notice.getByRole('link', { name: 'See plans and upgrade' }).getAttribute('href')).toBe('/pricing');
    expect(await chat.pushToTalk().count()).toBe(0);
    expect(await chat.audioFileInput().count()).toBe(0);
    expect(await chat.voiceModeToggle().count()).toBe(0);

    // Replies carry no playback controls, and the server refuses voice to the Free plan all the same.
    await chat.send('What is Kasa?');
    expect(await chat.waitForReplyEnd()).toBe('complete');
    expect(await chat.replyAudio().count()).toBe(0);
    const answers = await page.evaluate(async () => {
      const headers = { authorization: `Bearer ${localStorage.getItem('kasa_auth_token')}` };
      const speak = await fetch('/api/voice/synthesize', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Hello', language: 'en' }),
      });
      return { speak: speak.status };
    });
    expect(answers.speak).toBe(403);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }, 60_000);
});
