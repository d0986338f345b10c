import { allows } from '@kasa/contracts/src/plans';
import styled from '@emotion/styled';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { isApiError, useAuth } from '@kasa/api-client';
import type { Persona, Session } from '@kasa/contracts';
import { Button, InlineError, Muted, SkeletonBar, VisuallyHidden } from '@kasa/ui';
import { PersonaAvatar } from '../personas/PersonaAvatar';
import type { LiveReply } from '../voice/replyPlayer';
import { loadedReplyPlayer, loadReplyPlayer } from '../voice/voicePreferences';
import { Composer } from './Composer';
import { loadMessageBubble, preloadConversationParts } from './conversationParts';
import { describeFailure, useConversation } from './useConversation';
import { useT } from '../i18n/useT';
import { useChatPaths } from '../chatPaths';
import { personaText } from '../i18n/personaText';
import { ShareButton } from '../share/ShareButton';

const Column = styled.section`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  flex: 1;
  min-height: 0;
  @media (max-width: 48rem) {
    gap: 0.5rem;
  }
`;

const Header = styled.header`
  display: flex;
  align-items: center;
  gap: 0.75rem;
  > div:first-of-type {
    flex: 1;
    min-width: 0;
  }
  /* A long title takes two lines at most (one on a phone, where the conversation needs the room), cut at its end:
     it takes its own direction (an English title in Arabic keeps its start in sight and its punctuation at its
     end), and the page's alignment. */
  h1 {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
    margin: 0;
    font-size: 1.125rem;
    line-height: 1.3;
    overflow-wrap: anywhere;
    text-align: match-parent;
  }
  p {
    margin: 0;
    color: var(--kasa-muted);
    font-size: 0.875rem;
  }
  @media (max-width: 48rem) {
    gap: 0.5rem;
    h1 {
      -webkit-line-clamp: 1;
      line-clamp: 1;
    }
    p {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
  }
`;

const HeaderActions = styled.div`
  margin-inline-start: auto;
  flex-shrink: 0;
  /* On a phone, big enough for a thumb (44 px, as the chat's bar above it). */
  @media (max-width: 48rem) {
    button {
      min-height: 2.75rem;
    }
  }
`;

const Scroller = styled.div`
  /* The containing block of what is hidden for screen readers only in the messages, so it scrolls with them rather
     than lengthening the page. */
  position: relative;
  flex: 1;
  min-height: 12rem;
  overflow-y: auto;
  padding: 0.25rem 0.25rem 0.5rem;
  overscroll-behavior: contain;
  @media (max-width: 48rem) {
    min-height: 6rem;
  }
`;

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 1rem;
`;

const Greeting = styled.div`
  display: flex;
  gap: 0.75rem;
  align-items: flex-start;
  padding: 1rem;
  border: 1px dashed var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  p {
    margin: 0;
  }
`;

const Centered = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 0.75rem;
  margin: 3rem auto;
  max-width: 28rem;
  text-align: center;
  h1 {
    margin: 0;
    font-size: 1.25rem;
  }
`;

const MessageBubble = lazy(() => loadMessageBubble().then((module) => ({ default: module.MessageBubble })));

/** Runs `run` each time it commits: placed inside a Suspense boundary, once its content has appeared. */
function OnShown({ run }: { run: () => void }) {
  useLayoutEffect(run, [run]);
  return null;
}

/** Stays at the bottom of the messages while they scroll, over the newest text, above the composer. */
/**
 * Between the messages and the composer, in the flow rather than floating over the list: a button over the messages
 * would cover the controls of the one under it.
 */
const JumpBar = styled.div`
  display: flex;
  justify-content: center;
  padding: 0.25rem 0;
  button {
    background: var(--kasa-surface);
    box-shadow: var(--kasa-shadow);
  }
  /* On a phone, big enough for a thumb (44 px). */
  @media (max-width: 48rem) {
    button {
      min-height: 2.75rem;
    }
  }
`;

/** A failure in the conversation with what can be done about it (Retry, Dismiss): 44 px buttons on a phone. */
const FailureWithActions = styled(InlineError)`
  @media (max-width: 48rem) {
    button {
      min-height: 2.75rem;
    }
  }
`;

const SkeletonTurn = styled.div<{ mine: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  align-items: ${({ mine }) => (mine ? 'flex-end' : 'flex-start')};
  margin-bottom: 1.25rem;
`;

/** Grey bars in the shape of a few messages, while the conversation loads. */
function ConversationSkeleton({ label }: { label: string }) {
  return (
    <div data-testid="conversation-skeleton">
      <VisuallyHidden>{label}</VisuallyHidden>
      {[true, false, true, false].map((mine, index) => (
        <SkeletonTurn key={index} mine={mine} aria-hidden="true">
          <SkeletonBar width={mine ? '45%' : '80%'} />
          {mine ? null : <SkeletonBar width="65%" />}
        </SkeletonTurn>
      ))}
    </div>
  );
}

/** How close to the bottom (px) still counts as reading the newest message, so new text scrolls into view. */
const STICK_TO_BOTTOM_PX = 96;

/** The open conversation: header, messages (older pages on demand), the reply being written, and the composer. */
export function ConversationView({
  sessionId,
  persona,
  language,
  onLanguageChange,
  voiceAllowed,
  voiceMode,
  onVoiceModeChange,
  onSessionCreated,
}: {
  sessionId: string | undefined;
  persona: Persona;
  language: string;
  onLanguageChange: (tag: string) => void;
  /** The person's plan includes voice (Pro and up). */
  voiceAllowed: boolean;
  /** Each reply is read aloud as it is written. */
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  onSessionCreated: (session: Session) => void;
}) {
  const t = useT();
  const paths = useChatPaths();
  const conversation = useConversation({ sessionId, personaId: persona.id, language, onSessionCreated });
  const { query, messages, turn, busy, send: sendMessage } = conversation;
  const plan = useAuth().user?.subscriptionTier;
  // Video generation is Enterprise's: its replies offer "Make a video".
  const videoAllowed = allows(plan, 'video');
  // Images and documents in messages are Pro's and Enterprise's (spec section 6).
  const attachmentsAllowed = allows(plan, 'attachments');
  const scroller = useRef<HTMLDivElement>(null);
  // Following: the view keeps the newest text in sight. Scrolling up stops that (and offers "Jump to latest");
  // coming back to the bottom, or the button, starts it again.
  const following = useRef(true);
  const [awayFromBottom, setAwayFromBottom] = useState(false);

  // Voice mode: a reply to a message sent here is read aloud as it is written, each sentence as soon as it is
  // complete (or, where the audio cannot be streamed, once the reply is). A stopped or failed reply stops being
  // read, and so does turning voice mode off. Each reply once, whatever renders follow.
  const spoken = useRef<{ id: string; live: Promise<LiveReply | null>; ended: boolean } | null>(null);
  const speaking = turn?.kind === 'send' && voiceMode && voiceAllowed ? turn : null;
  const speakingId = speaking?.draft.id ?? null;
  const speakingText = speaking?.draft.text ?? '';
  const speakingStatus = speaking?.finalStatus ?? null;
  const speakingLanguage = speaking?.language ?? language;
  useEffect(() => {
    let current = spoken.current;
    if (!speakingId) {
      // Voice mode turned off: silence the reply being read.
      if (current && !voiceMode) void current.live.then((live) => live?.cancel());
      return;
    }
    if (current?.id !== speakingId) {
      if (speakingStatus && speakingStatus !== 'complete') return;
      const id = speakingId;
      const live = loadReplyPlayer().then(({ replyPlayer }) => replyPlayer.speakLive(id, speakingLanguage));
      current = spoken.current = { id, live, ended: false };
    }
    if (current.ended) return;
    const reply = { id: speakingId, text: speakingText, language: speakingLanguage };
    const status = speakingStatus;
    if (status) current.ended = true;
    void current.live.then(async (live) => {
      if (status === 'complete' && live) live.finish(reply.text);
      else if (status === 'complete') await (await loadReplyPlayer()).replyPlayer.play(reply);
      else if (status) live?.cancel();
      else live?.update(reply.text);
    });
  }, [speakingId, speakingText, speakingStatus, speakingLanguage, voiceMode]);
  // Another conversation (or leaving the chat) silences this one's reply.
  useEffect(() => () => void loadedReplyPlayer()?.then(({ replyPlayer }) => replyPlayer.stop()), []);

  // What the person said while a reply was still being stopped (hands-free barge-in): sent once it has stopped.
  const heldVoice = useRef<{ text: string; language: string } | null>(null);
  const sendVoice = useCallback(
    (text: string, lang: string) => {
      if (busy) heldVoice.current = { text, language: lang };
      else sendMessage(text, lang, 'voice');
    },
    [busy, sendMessage],
  );
  useEffect(() => {
    const held = heldVoice.current;
    if (busy || !held) return;
    heldVoice.current = null;
    sendMessage(held.text, held.language, 'voice');
  }, [busy, sendMessage]);

  // A stored conversation shows messages: their code starts loading now, beside the messages themselves.
  useEffect(() => {
    if (sessionId) preloadConversationParts();
  }, [sessionId]);

  const followLatest = useCallback(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, []);
  const lastContent = messages.at(-1)?.content;
  // The files of the conversation, which its replies may cite.
  const sourceNames = [...new Set(messages.flatMap((m) => m.attachments?.map((a) => a.name) ?? []))].join('\n');
  const sources = useMemo(() => (sourceNames ? sourceNames.split('\n') : []), [sourceNames]);
  useLayoutEffect(followLatest, [followLatest, messages.length, lastContent]);

  const jumpToLatest = () => {
    const element = scroller.current;
    if (!element) return;
    following.current = true;
    setAwayFromBottom(false);
    element.scrollTop = element.scrollHeight;
    element.focus({ preventScroll: true }); // the button goes away; the reader stays in the messages
  };

  if (query.isError && isApiError(query.error) && (query.error.status === 404 || query.error.status === 400)) {
    return (
      <Centered role="alert" data-testid="conversation-not-found">
        <h1>{t('conversation.notFound')}</h1>
        <Muted>{t('conversation.notFoundText')}</Muted>
        <Link to={paths.home}>{t('conversation.startNew')}</Link>
      </Centered>
    );
  }

  const title = query.data?.pages[0]?.title;
  const lastReplyIndex = messages.findLastIndex((m) => m.role === 'assistant');
  const empty = !sessionId || (query.isSuccess && messages.length === 0);
  const loading = Boolean(sessionId) && query.isPending;

  return (
    <Column aria-labelledby="conversation-title">
      <Header>
        <PersonaAvatar persona={persona} size="2.5rem" />
        <div>
          <h1 id="conversation-title" dir="auto" title={title}>
            {title ?? (sessionId ? t('conversation.title') : t('conversation.newWith', { name: persona.name }))}
          </h1>
          <p>{t('conversation.persona', { name: persona.name, expertise: personaText(t, persona, 'expertise') })}</p>
        </div>
        {sessionId && messages.length > 0 ? (
          <HeaderActions>
            <ShareButton sessionId={sessionId} />
          </HeaderActions>
        ) : null}
      </Header>

      <Scroller
        ref={scroller}
        onScroll={(event) => {
          const el = event.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
          setAwayFromBottom(!following.current);
        }}
        tabIndex={0}
        role="region"
        aria-label={t('conversation.messages')}
        aria-busy={loading}
        data-testid="messages"
      >
        {query.hasNextPage ? (
          <div style={{ textAlign: 'center', marginBottom: '0.75rem' }}>
            <Button
              type="button"
              variant="ghost"
              compact
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? t('common.loading') : t('conversation.loadEarlier')}
            </Button>
          </div>
        ) : null}
        {loading ? <ConversationSkeleton label={t('conversation.loading')} /> : null}
        {query.isError && !query.data ? (
          <FailureWithActions role="alert">
            <p>{t('conversation.loadFailed', { reason: describeFailure(query.error) })}</p>
            <Button type="button" compact onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          </FailureWithActions>
        ) : null}
        {empty && !turn ? (
          <Greeting data-testid="persona-greeting">
            <PersonaAvatar persona={persona} size="2rem" />
            <p>{personaText(t, persona, 'greeting')}</p>
          </Greeting>
        ) : null}
        <Suspense fallback={messages.length > 0 ? <ConversationSkeleton label={t('conversation.loading')} /> : null}>
          <OnShown run={followLatest} />
          <List>
            {messages.map((message, index) => (
              <MessageBubble
                key={message.key}
                message={message}
                authorName={persona.name}
                voiceLanguage={voiceAllowed ? language : undefined}
                videoAllowed={videoAllowed}
                sources={sources}
                onRegenerate={
                  !busy && message.id && index === lastReplyIndex && index === messages.length - 1 && !turn?.error
                    ? () => conversation.regenerate(message.id!)
                    : undefined
                }
                onEdit={
                  !busy && message.id && message.role === 'user' && !message.live
                    ? (content) => conversation.edit(message.id!, content, message.attachments)
                    : undefined
                }
                onSelectVersion={busy ? undefined : conversation.selectVersion}
              />
            ))}
          </List>
        </Suspense>
        {turn?.error ? (
          <FailureWithActions role="alert" style={{ marginTop: '0.75rem' }} data-testid="send-error">
            <p>{turn.error}</p>
            <Button type="button" compact onClick={conversation.retry}>
              {t('common.retry')}
            </Button>
            <Button type="button" variant="ghost" compact onClick={conversation.dismissError}>
              {t('common.dismiss')}
            </Button>
          </FailureWithActions>
        ) : null}
      </Scroller>
      {awayFromBottom && messages.length > 0 ? (
        <JumpBar>
          <Button type="button" variant="secondary" compact onClick={jumpToLatest} data-testid="jump-to-latest">
            {t('conversation.jumpToLatest')}
          </Button>
        </JumpBar>
      ) : null}

      <Composer
        personaName={persona.name}
        busy={busy}
        stopping={Boolean(turn?.draft.stopping)}
        onSend={(text, attachments) => conversation.send(text, undefined, undefined, attachments)}
        attachmentsAllowed={attachmentsAllowed}
        onStop={conversation.stop}
        language={language}
        onLanguageChange={onLanguageChange}
        voice={{
          allowed: voiceAllowed,
          voiceMode,
          onVoiceModeChange,
          onTranscript: sendVoice,
          onBargeIn: conversation.stop,
        }}
      />
    </Column>
  );
}
