import type { Page } from 'playwright-core';

/** The chat workspace (/chat and /chat/:sessionId): sidebar, persona picker, conversation and composer. */
export class ChatPage {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string, sessionId?: string) {
    await this.page.goto(`${baseUrl}/chat${sessionId ? `/${sessionId}` : ''}`);
  }

  app() {
    return this.page.getByTestId('chat-app');
  }

  /** The session id in the URL, or null on a new chat. */
  sessionIdFromUrl(): string | null {
    return /\/chat\/([0-9a-f]{24})$/.exec(new URL(this.page.url()).pathname)?.[1] ?? null;
  }

  // --- sidebar
  sidebar() {
    return this.page.getByRole('complementary', { name: 'Chat sidebar' });
  }

  sidebarToggle() {
    return this.page.getByRole('button', { name: /^(Chats|Hide chats)$/ });
  }

  newChatButton() {
    return this.sidebar().getByRole('button', { name: '+ New chat' });
  }

  sessionLinks() {
    return this.sidebar().getByRole('list', { name: 'Your conversations' }).getByRole('link');
  }

  sessionLink(title: string) {
    return this.sidebar().getByRole('list', { name: 'Your conversations' }).getByRole('link', { name: title });
  }

  noSessions() {
    return this.page.getByTestId('no-sessions');
  }

  renameButton(title: string) {
    return this.sidebar().getByRole('button', { name: `Rename “${title}”` });
  }

  async rename(title: string, next: string) {
    await this.renameButton(title).click();
    const form = this.sidebar().getByRole('form', { name: `Rename “${title}”` });
    await form.getByLabel('New title').fill(next);
    await form.getByRole('button', { name: 'Save' }).click();
  }

  deleteButton(title: string) {
    return this.sidebar().getByRole('button', { name: `Delete “${title}”` });
  }

  confirmDialog() {
    return this.page.getByRole('dialog', { name: 'Delete this conversation?' });
  }

  searchBox() {
    return this.sidebar().getByRole('searchbox', { name: 'Search messages' });
  }

  searchResults() {
    return this.page.getByTestId('search-results');
  }

  serviceHealth(service: string) {
    return this.page.getByTestId(`health-${service}`);
  }

  userCard() {
    return this.page.getByTestId('chat-user');
  }

  // --- personas and conversation
  persona(id: string) {
    return this.page.getByRole('navigation', { name: 'Personas' }).getByTestId(`persona-${id}`);
  }

  title() {
    return this.page.locator('#conversation-title');
  }

  greeting() {
    return this.page.getByTestId('persona-greeting');
  }

  notFound() {
    return this.page.getByTestId('conversation-not-found');
  }

  userMessages() {
    return this.page.getByTestId('message-user');
  }

  replies() {
    return this.page.getByTestId('message-assistant');
  }

  lastReply() {
    return this.replies().last();
  }

  /** The text of the last reply (what the reader sees, without the footer's buttons). */
  async lastReplyText(): Promise<string> {
    return (await this.lastReply().getByTestId('message-content').innerText()).trim();
  }

  /** Waits until the last reply is no longer being written; answers its final status. */
  async waitForReplyEnd(timeout = 30_000): Promise<string> {
    const status = await this.page.waitForFunction(
      () => {
        const replies = document.querySelectorAll('[data-testid="message-assistant"]');
        const last = replies[replies.length - 1];
        const value = last?.getAttribute('data-status');
        return value && value !== 'streaming' ? value : false;
      },
      undefined,
      { timeout, polling: 50 },
    );
    return String(await status.jsonValue());
  }

  composer() {
    return this.page.getByRole('textbox', { name: /^Message / });
  }

  sendButton() {
    return this.page.getByRole('form', { name: 'Send a message' }).getByRole('button', { name: 'Send' });
  }

  stopButton() {
    return this.page.getByRole('form', { name: 'Send a message' }).getByRole('button', { name: /^Stop/ });
  }

  languageSelect() {
    return this.page.getByRole('combobox', { name: 'Reply language' });
  }

  /** Types a message and sends it with Enter. */
  async send(text: string) {
    await this.composer().fill(text);
    await this.composer().press('Enter');
  }

  sendError() {
    return this.page.getByTestId('send-error');
  }

  // --- voice
  /** The composer's voice row: push to talk, the audio file input, voice mode and the progress line. */
  voiceControls() {
    return this.page.getByTestId('voice-controls');
  }

  pushToTalk() {
    return this.page.getByRole('button', { name: 'Push to talk' });
  }

  audioFileInput() {
    return this.page.getByLabel('Send an audio file');
  }

  voiceModeToggle() {
    return this.page.getByRole('button', { name: 'Voice mode' });
  }

  /** 'Listening…', 'Transcribing…' or empty. */
  voiceStatus() {
    return this.page.getByTestId('voice-status');
  }

  voiceError() {
    return this.page.getByTestId('voice-error');
  }

  /** 'Voice is part of the Pro plan.' with its link to /pricing, shown to a plan without voice. */
  voiceUpgrade() {
    return this.page.getByTestId('voice-upgrade');
  }

  /** A reply's playback controls; `data-state` is idle, loading, playing, paused or error. */
  replyAudio(reply = this.lastReply()) {
    return reply.getByTestId('reply-audio-controls');
  }

  playPauseButton(reply = this.lastReply()) {
    return this.replyAudio(reply).getByRole('button', { name: /^(Play|Pause) this reply$/ });
  }

  speedSelect(reply = this.lastReply()) {
    return this.replyAudio(reply).getByRole('combobox', { name: 'Playback speed' });
  }

  /** Waits until the reply's audio is in `state`. */
  async waitForAudioState(state: string, reply = this.lastReply(), timeout = 30_000) {
    await reply.locator(`[data-testid="reply-audio-controls"][data-state="${state}"]`).waitFor({ timeout });
  }

  /** The page's <audio> element that plays replies: where it is, how fast, and whether it is paused. */
  audioElement() {
    return this.page.evaluate(() => {
      const audio = document.querySelector<HTMLAudioElement>('audio[data-testid="reply-audio"]');
      return audio
        ? {
            src: audio.currentSrc,
            currentTime: audio.currentTime,
            paused: audio.paused,
            playbackRate: audio.playbackRate,
          }
        : null;
    });
  }
}
