import { eventually } from '@kasa/test-kit';
import type { Locator, Page } from 'playwright-core';

/** The chat workspace (/chat and /chat/<sessionId>): sidebar, persona picker, conversation and composer. */
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

  /** The sidebar, found in any language. */
  sidebarPanel() {
    return this.page.locator('aside');
  }

  sidebarToggle() {
    return this.page.getByRole('button', { name: /^(Chats|Hide chats)$/ });
  }

  /** The chat's own bar on a phone: its Chats toggle (whatever it is called, and even while the drawer hides it). */
  phoneToggle() {
    return this.page.getByTestId('sidebar-toggle');
  }

  /** The bar's New chat button on a phone (outside the sidebar). */
  phoneNewChatButton() {
    return this.page.getByTestId('phone-new-chat');
  }

  /** Brings the sidebar into sight: on a phone it is a drawer, opened with the Chats toggle; wider screens show it. */
  async showSidebar() {
    await this.app().waitFor();
    if (!(await this.sidebar().isVisible()) && (await this.phoneToggle().isVisible())) await this.phoneToggle().click();
    await this.sidebar().waitFor();
    // The drawer slides in: what is in it is where a person sees it once the slide has ended.
    await this.sidebar().evaluate((drawer) =>
      Promise.all(drawer.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
    );
  }

  /** Starts a new chat with the New chat button in sight: the sidebar's, or the phone bar's while the drawer is shut. */
  async startNewChat() {
    if (await this.sidebar().isVisible()) await this.newChatButton().click();
    else await this.phoneNewChatButton().click();
  }

  /** The drawer's own Hide chats button (phones). */
  drawerCloseButton() {
    return this.sidebar().getByRole('button', { name: 'Hide chats' });
  }

  /** Dims the page behind the open drawer (phones); a tap on it closes the drawer. */
  drawerBackdrop() {
    return this.page.getByTestId('drawer-backdrop');
  }

  /**
   * Where focus is: inside the sidebar, on an element of the page behind it (neither the sidebar nor the page
   * itself), its text, and whether it is the phone bar's toggle.
   */
  focus() {
    return this.page.evaluate(() => {
      const active = document.activeElement;
      const inSidebar = active?.closest('aside') != null;
      return {
        inSidebar,
        behind: active != null && active !== document.body && active !== document.documentElement && !inSidebar,
        onToggle: active?.getAttribute('data-testid') === 'sidebar-toggle',
        text: active?.textContent?.trim() ?? '',
      };
    });
  }

  /** How many elements on the page are inert, and whether the composer and the shell's navigation are among them. */
  inertState() {
    return this.page.evaluate(() => ({
      count: document.querySelectorAll('[inert]').length,
      composer: document.querySelector('form[data-tour="chat-composer"]')?.closest('[inert]') != null,
      navigation: document.querySelector('header')?.closest('[inert]') != null,
      sidebar: document.querySelector('aside')?.closest('[inert]') != null,
    }));
  }

  newChatButton() {
    return this.sidebar().getByRole('button', { name: '+ New chat' });
  }

  sessionLinks() {
    return this.sidebar().getByRole('list', { name: 'Your conversations' }).getByRole('link');
  }

  /** A session's link; its name is the full title (however the list cuts it) followed by its time or date. */
  sessionLink(title: string | RegExp) {
    return this.sidebar().getByRole('list', { name: 'Your conversations' }).getByRole('link', { name: title });
  }

  /** A session's title as the list shows it (the link's first part, before its time). */
  sessionTitle(title: string | RegExp) {
    return this.sessionLink(title).locator(':scope > span');
  }

  /** A session's title as the list shows it, found by the session's id (in any language). */
  sessionTitleOf(sessionId: string) {
    return this.page.locator(`aside a[href="/chat/${sessionId}"] > span`);
  }

  /** The `<time>` a session shows beside its title. */
  sessionTime(title: string | RegExp) {
    return this.sessionLink(title).locator('time');
  }

  /** The list's date groups' headings, in order: Today, Yesterday, Previous 7 days, Previous 30 days, months. */
  groupHeadings() {
    return this.page.getByTestId('session-group').locator('h3').allInnerTexts();
  }

  /** One date group's list of sessions, by its heading. */
  sessionGroup(heading: string) {
    return this.sidebar().getByRole('list', { name: heading, exact: true });
  }

  /** The sidebar's "Conversations" region (busy while the list loads). */
  sessionsRegion() {
    return this.sidebar().getByRole('region', { name: 'Conversations', exact: true });
  }

  sessionsSkeleton() {
    return this.page.getByTestId('sessions-skeleton');
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

  /** The search's hits, each a link to its conversation. */
  searchHits() {
    return this.searchResults().getByTestId('search-hit');
  }

  serviceHealth(service: string) {
    return this.page.getByTestId(`health-${service}`);
  }

  userCard() {
    return this.page.getByTestId('chat-user');
  }

  // --- personas and conversation
  personaPicker() {
    return this.page.getByRole('navigation', { name: 'Personas' });
  }

  /** The row of personas, found in any language. */
  personaRow() {
    return this.page.locator('nav[data-tour="chat-personas"]');
  }

  /** Every persona choice's box, in order (in `row`: the Personas navigation by default). */
  personaBoxes(row = this.personaPicker()) {
    return row.locator('button[data-testid^="persona-"]').evaluateAll((buttons) =>
      buttons.map((b) => {
        const r = b.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width };
      }),
    );
  }

  persona(id: string) {
    return this.page.getByRole('navigation', { name: 'Personas' }).getByTestId(`persona-${id}`);
  }

  title() {
    return this.page.locator('#conversation-title');
  }

  greeting() {
    return this.page.getByTestId('persona-greeting');
  }

  /** The scrolling list of messages (a region, busy while the conversation loads). */
  messagesRegion() {
    return this.page.getByRole('region', { name: 'Messages', exact: true });
  }

  conversationSkeleton() {
    return this.page.getByTestId('conversation-skeleton');
  }

  /** How far (px) the messages are scrolled from their bottom. */
  distanceFromBottom(): Promise<number> {
    return this.messagesRegion().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  }

  /** The scrolling list of messages, found in any language. */
  messagesScroller() {
    return this.page.getByTestId('messages');
  }

  /** The composer's form, found in any language. */
  composerBox() {
    return this.page.locator('form[data-tour="chat-composer"]');
  }

  jumpToLatest() {
    return this.page.getByRole('button', { name: 'Jump to latest' });
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

  /** The parts of the conversation's files that a reply cites, each marked as a citation (`data-source`: the file). */
  citations(reply: Locator = this.lastReply()) {
    return reply.getByTestId('message-content').getByTestId('citation');
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

  composerForm() {
    return this.page.getByRole('form', { name: 'Send a message' });
  }

  sendButton() {
    return this.page.getByRole('form', { name: 'Send a message' }).getByRole('button', { name: 'Send', exact: true });
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

  // --- attachments
  /** The composer's file picker (Pro and up): images and documents for the message being written. */
  attachInput() {
    return this.page.getByTestId('attach-input');
  }

  /** The attach button a plan without attachments sees: it opens the note on what Pro adds. */
  attachLocked() {
    return this.page.getByTestId('attach-locked');
  }

  /** 'Images and documents … are part of the Pro plan.' with its link to /pricing. */
  attachmentsUpgrade() {
    return this.page.getByTestId('attachments-upgrade');
  }

  /** The files added to the message being written; `data-state` is uploading, ready or failed. */
  pendingAttachments() {
    return this.page.getByTestId('pending-attachment');
  }

  /** Waits until `count` added files are uploaded (each chip `ready`). */
  async waitForUploads(count: number) {
    await eventually(
      async () => {
        const states = await this.pendingAttachments().evaluateAll((chips) =>
          chips.map((chip) => chip.getAttribute('data-state')),
        );
        return states.length === count && states.every((state) => state === 'ready');
      },
      { timeoutMs: 15_000, what: `${count} files uploaded` },
    );
  }

  /**
   * Pastes files into the message field as the clipboard holds them (a screenshot, an image copied from a page): a
   * real `paste` event whose DataTransfer carries the files, made in the page. True when the composer took them
   * (it cancelled the browser's own paste).
   */
  pasteFiles(files: { name: string; type: string; bytes: Buffer }[]): Promise<boolean> {
    const encoded = files.map(({ name, type, bytes }) => ({ name, type, base64: bytes.toString('base64') }));
    return this.composer().evaluate((field, list) => {
      const transfer = new DataTransfer();
      for (const { name, type, base64 } of list) {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], name, { type }));
      }
      (field as HTMLTextAreaElement).focus();
      const paste = new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true });
      return !field.dispatchEvent(paste);
    }, encoded);
  }

  /** The files a message carries (in the conversation). */
  messageAttachments(message = this.userMessages().last()) {
    return message.getByTestId('message-attachment');
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
  /** Under the voice row: which engine reads the chosen language aloud here (`data-engine`, empty for none). */
  voiceEngineNote() {
    return this.page.getByTestId('voice-engine');
  }

  /** The Hands-free toggle in the voice row (aria-pressed while on). */
  handsFreeToggle() {
    return this.voiceControls().getByRole('button', { name: 'Hands-free' });
  }

  /** Hands-free voice's panel: its `data-state` is starting, listening, hearing, thinking or speaking. */
  handsFreePanel() {
    return this.page.getByTestId('hands-free');
  }

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
