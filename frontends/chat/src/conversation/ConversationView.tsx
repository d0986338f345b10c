import styled from '@emotion/styled';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '@kasa/api-client';
import type { Persona, Session } from '@kasa/contracts';
import { Button, InlineError, Muted } from '../ui/controls';
import { PersonaAvatar } from '../personas/PersonaAvatar';
import { loadedReplyPlayer, loadReplyPlayer } from '../voice/voicePreferences';
import { Composer } from './Composer';
import { MessageBubble } from './MessageBubble';
import { describeFailure, useConversation } from './useConversation';

const Column = styled.section`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  min-height: 0;
  height: 100%;
`;

const Header = styled.header`
  display: flex;
  align-items: center;
  gap: 0.75rem;
  h1 {
    margin: 0;
    font-size: 1.125rem;
    line-height: 1.3;
  }
  p {
    margin: 0;
    color: var(--kasa-muted);
    font-size: 0.875rem;
  }
`;

const Scroller = styled.div`
  flex: 1;
  min-height: 12rem;
  overflow-y: auto;
  padding: 0.25rem 0.25rem 0.5rem;
  overscroll-behavior: contain;
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
  /** Each reply is read aloud when it is complete. */
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  onSessionCreated: (session: Session) => void;
}) {
  const conversation = useConversation({ sessionId, personaId: persona.id, language, onSessionCreated });
  const { query, messages, turn, busy } = conversation;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  // Voice mode: a reply to a message sent here is read aloud once its stream has ended (a stopped or failed one
  // is not). Each reply once, whatever renders follow.
  const spoken = useRef(new Set<string>());
  const finished = turn?.kind === 'send' && turn.finalStatus === 'complete' ? turn : null;
  useEffect(() => {
    if (!finished?.draft.id || !voiceMode || !voiceAllowed || spoken.current.has(finished.draft.id)) return;
    spoken.current.add(finished.draft.id);
    const reply = { id: finished.draft.id, text: finished.draft.text, language: finished.language };
    void loadReplyPlayer().then(({ replyPlayer }) => replyPlayer.play(reply));
  }, [finished, voiceMode, voiceAllowed]);
  // Another conversation (or leaving the chat) silences this one's reply.
  useEffect(() => () => void loadedReplyPlayer()?.then(({ replyPlayer }) => replyPlayer.stop()), []);

  const lastContent = messages.at(-1)?.content;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastContent]);

  if (query.isError && isApiError(query.error) && (query.error.status === 404 || query.error.status === 400)) {
    return (
      <Centered role="alert" data-testid="conversation-not-found">
        <h1>Conversation not found</h1>
        <Muted>It may have been deleted, or it belongs to another account.</Muted>
        <Link to="/chat">Start a new chat</Link>
      </Centered>
    );
  }

  const title = query.data?.pages[0]?.title;
  const lastReplyIndex = messages.findLastIndex((m) => m.role === 'assistant');
  const empty = !sessionId || (query.isSuccess && messages.length === 0);

  return (
    <Column aria-labelledby="conversation-title">
      <Header>
        <PersonaAvatar persona={persona} size="2.5rem" />
        <div>
          <h1 id="conversation-title">{title ?? (sessionId ? 'Conversation' : `New chat with ${persona.name}`)}</h1>
          <p>
            {persona.name} · {persona.expertise}
          </p>
        </div>
      </Header>

      <Scroller
        ref={scroller}
        onScroll={(event) => {
          const el = event.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
        }}
        tabIndex={0}
        role="region"
        aria-label="Messages"
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
              {query.isFetchingNextPage ? 'Loading…' : 'Load earlier messages'}
            </Button>
          </div>
        ) : null}
        {sessionId && query.isPending ? <Muted role="status">Loading the conversation…</Muted> : null}
        {query.isError && !query.data ? (
          <InlineError role="alert">
            <p>Could not load this conversation: {describeFailure(query.error)}</p>
            <Button type="button" compact onClick={() => void query.refetch()}>
              Retry
            </Button>
          </InlineError>
        ) : null}
        {empty && !turn ? (
          <Greeting data-testid="persona-greeting">
            <PersonaAvatar persona={persona} size="2rem" />
            <p>{persona.greeting ?? `Hello, I am ${persona.name}. How can I help?`}</p>
          </Greeting>
        ) : null}
        <List>
          {messages.map((message, index) => (
            <MessageBubble
              key={message.key}
              message={message}
              authorName={persona.name}
              voiceLanguage={voiceAllowed ? language : undefined}
              onRegenerate={
                !busy && index === lastReplyIndex && index === messages.length - 1 && !turn?.error
                  ? conversation.regenerate
                  : undefined
              }
            />
          ))}
        </List>
        {turn?.error ? (
          <InlineError role="alert" style={{ marginTop: '0.75rem' }} data-testid="send-error">
            <p>{turn.error}</p>
            <Button type="button" compact onClick={conversation.retry}>
              Retry
            </Button>
            <Button type="button" variant="ghost" compact onClick={conversation.dismissError}>
              Dismiss
            </Button>
          </InlineError>
        ) : null}
      </Scroller>

      <Composer
        personaName={persona.name}
        busy={busy}
        stopping={Boolean(turn?.draft.stopping)}
        onSend={(text) => conversation.send(text)}
        onStop={conversation.stop}
        language={language}
        onLanguageChange={onLanguageChange}
        voice={{
          allowed: voiceAllowed,
          voiceMode,
          onVoiceModeChange,
          onTranscript: (text, lang) => conversation.send(text, lang, 'voice'),
        }}
      />
    </Column>
  );
}
