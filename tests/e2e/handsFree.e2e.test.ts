import { eventually } from '@kasa/test-kit';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { fakeMicrophoneArgs, spokenThenSilent } from '../support/fakeMicrophone';
import { FakeSpeechProvider } from '../support/fakeSpeechProvider';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { ChatPage } from './pages/ChatPage';
import { signUpToChat, upgradeToPro } from './pages/people';

/**
 * Hands-free voice, end to end: chromium's fake microphone plays a question, then silence, over and over. The voice
 * activity detector (Silero VAD in WebAssembly) hears the question end, the platform's transcription (a fake provider
 * answering in 300 ms; the answers are spoken by the offline engine) turns it into a voice message, the reply (a fake AI provider, first token after 200 ms) is
 * read aloud as it streams, and the question heard again over Kasa's voice stops the reply (barge-in).
 */
const HEARD = 'What is Kasa?';
const TRANSCRIPTION_MS = 300;
const FIRST_TOKEN_MS = 200;
/** Long enough to still be written when the question comes round again. */
const REPLY = `Kasa is a voice-first assistant. ${'It listens, it answers, and it speaks your language. '.repeat(12)}`;

let workDir: string;
let microphone: string;
let browser: Browser;
let platform: RunningPlatform;
const speechToText = new FakeSpeechProvider({ heard: HEARD, transcriptionDelayMs: TRANSCRIPTION_MS });
const ai = new FakeOpenAI();

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hands-free-'));
  microphone = path.join(workDir, 'question.wav');
  spokenThenSilent(microphone, HEARD, 4);
  await Promise.all([speechToText.start(), ai.start()]);
  ai.mode = { kind: 'ok', text: REPLY, delayMs: 60, firstTokenDelayMs: FIRST_TOKEN_MS };
  [browser, platform] = await Promise.all([
    launchBrowser({ args: fakeMicrophoneArgs(microphone) }),
    startPlatform({
      ...fakeProviderEnv(ai),
      // Transcription only (Google's shape): the answers are spoken by the offline engine.
      GOOGLE_STT_API_KEY: 'fake-google-key',
      GOOGLE_STT_BASE_URL: speechToText.origin,
    }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await Promise.all([speechToText.stop(), ai.stop()]);
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

const lastLogs = () => platform.logs.slice(-20).join('\n');

async function openChat(): Promise<{ page: Page; chat: ChatPage }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(['microphone'], { origin: platform.baseUrl });
  const page = await context.newPage();
  await signUpToChat(page, platform.baseUrl);
  await upgradeToPro(page, platform.baseUrl);
  const chat = new ChatPage(page);
  await chat.languageSelect().selectOption('en');
  return { page, chat };
}

describe('hands-free voice', () => {
  it('hears a question end, sends it, speaks the answer as it streams, and stops when talked over', async () => {
    const { page, chat } = await openChat();
    await chat.handsFreeToggle().click();
    expect(await chat.handsFreeToggle().getAttribute('aria-pressed')).toBe('true');
    // The answers are spoken: voice mode comes on with it.
    expect(await chat.voiceModeToggle().getAttribute('aria-pressed')).toBe('true');
    const panel = chat.handsFreePanel();
    await panel.waitFor();

    // The question is heard, transcribed and sent as a voice message, with no button pressed.
    await chat.userMessages().first().waitFor({ timeout: 30_000 });
    const spoken = chat.userMessages().first();
    expect(await spoken.getAttribute('data-type')).toBe('voice');
    expect(await spoken.getByTestId('message-content').innerText()).toBe(HEARD);
    // What the detector heard went as a WAV, in the language the person chose.
    const upload = speechToText.uploads[0]!;
    expect(upload.body.subarray(0, 4).toString()).toBe('RIFF');
    expect(upload.fields.language).toBe('en-US');

    // The answer is spoken while it is still being written.
    await eventually(async () => (await panel.getAttribute('data-state')) === 'speaking', {
      timeoutMs: 20_000,
      intervalMs: 50,
      context: lastLogs,
      what: 'Kasa to speak the answer',
    });
    const turn = await page.waitForFunction(
      () => {
        const at = (name: string) => performance.getEntriesByName(name, 'mark')[0]?.startTime;
        const [speechEnd, audio] = [at('kasa:hands-free:speech-end'), at('kasa:read-aloud:first-audio')];
        return speechEnd !== undefined && audio !== undefined ? audio - speechEnd : false;
      },
      undefined,
      { timeout: 20_000, polling: 50 },
    );
    const turnMs = Number(await turn.jsonValue());
    expect(turnMs).toBeGreaterThan(TRANSCRIPTION_MS + FIRST_TOKEN_MS);
    console.log(
      `hands-free turn: ${Math.round(turnMs)} ms from the end of speech to the first audio of the answer ` +
        `(transcription ${TRANSCRIPTION_MS} ms and first token ${FIRST_TOKEN_MS} ms of it are the fakes')`,
    );

    // The question comes round again over Kasa's voice: the reply stops, and the new question is sent.
    const firstReply = chat.replies().first();
    await eventually(async () => (await firstReply.getAttribute('data-status')) === 'stopped', {
      timeoutMs: 20_000,
      intervalMs: 100,
      context: lastLogs,
      what: 'the reply to stop when talked over',
    });
    await chat.userMessages().nth(1).waitFor({ timeout: 20_000 });
    expect(await chat.userMessages().nth(1).getAttribute('data-type')).toBe('voice');

    // One tap leaves: the panel goes and the microphone is let go.
    await panel.getByRole('button', { name: 'Exit hands-free' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(await chat.handsFreeToggle().getAttribute('aria-pressed')).toBe('false');
    const uploads = speechToText.uploads.length;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(speechToText.uploads.length).toBe(uploads);
  }, 120_000);
});
