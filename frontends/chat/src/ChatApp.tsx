import styled from '@emotion/styled';
import { useCallback, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useAuth } from '@kasa/api-client';
import type { Persona, Session } from '@kasa/contracts';
import { usePersonas, useSessionMessages } from './api/chatQueries';
import { ConversationView } from './conversation/ConversationView';
import { isFreeLanguageChoice, loadLanguage, saveLanguage } from './conversation/languages';
import { describeFailure } from './conversation/useConversation';
import { PersonaPicker } from './personas/PersonaPicker';
import { Sidebar } from './sidebar/Sidebar';
import { Button } from './ui/controls';
import { loadVoiceMode, planHasVoice, saveVoiceMode } from './voice/voicePreferences';

const Workspace = styled.div`
  display: grid;
  grid-template-columns: minmax(14rem, 18rem) minmax(0, 1fr);
  gap: 1rem;
  width: 100%;
  max-width: 80rem;
  margin: 0 auto;
  padding: 1rem 1rem 1.5rem;
  /* The conversation scrolls inside the page, so the composer stays in view. */
  height: max(34rem, calc(100dvh - 5rem));
  @media (max-width: 48rem) {
    grid-template-columns: minmax(0, 1fr);
    grid-template-rows: auto auto minmax(0, 1fr);
    padding: 0.5rem 0.5rem 1rem;
    height: max(32rem, calc(100dvh - 4.5rem));
  }
`;

const Main = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  min-height: 0;
  min-width: 0;
`;

const PhoneBar = styled.div`
  display: none;
  @media (max-width: 48rem) {
    display: flex;
    justify-content: space-between;
    gap: 0.5rem;
  }
`;

const DEFAULT_PERSONA_ID = 'kasa';

/** Shown until the personas arrive (or when a session's persona is no longer offered). */
const fallbackPersona = (id: string): Persona => ({
  id,
  name: id.charAt(0).toUpperCase() + id.slice(1),
  expertise: 'Assistant',
  systemPrompt: '',
});

/**
 * The chat workspace, mounted by the shell at /chat and /chat/:sessionId for a signed-in user: sidebar, persona
 * picker and the conversation. The URL names the open session, so a reload opens it again.
 */
export default function ChatApp() {
  const { sessionId } = useParams();
  const navigate = useNavigate();
  const personas = usePersonas();
  const openSession = useSessionMessages(sessionId);
  const sidebarId = useId();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [newChatPersonaId, setNewChatPersonaId] = useState(DEFAULT_PERSONA_ID);
  const [language, setLanguage] = useState(loadLanguage);
  const [voiceMode, setVoiceMode] = useState(loadVoiceMode);
  const voiceAllowed = planHasVoice(useAuth().user?.subscriptionTier);
  // A reply language chosen on Pro stays saved, but after a move to Free the conversation goes back to Auto-detect.
  const replyLanguage = voiceAllowed || isFreeLanguageChoice(language) ? language : 'auto';

  // The conversation view is keyed so that opening another session or a new chat starts afresh, except when a
  // new chat's first message just created its session: that conversation goes on, with its reply streaming.
  const [adopted, setAdopted] = useState<string | null>(null);
  const [view, setView] = useState({ sessionId, key: 0 });
  if (view.sessionId !== sessionId) {
    const continues = view.sessionId === undefined && sessionId !== undefined && sessionId === adopted;
    setView({ sessionId, key: continues ? view.key : view.key + 1 });
    if (adopted !== null) setAdopted(null);
  }

  const personaList = personas.data ?? [];
  const activePersonaId = sessionId ? openSession.data?.pages[0]?.personaId : newChatPersonaId;
  const persona =
    personaList.find((p) => p.id === activePersonaId) ?? fallbackPersona(activePersonaId ?? DEFAULT_PERSONA_ID);

  const startNewChat = useCallback(
    (personaId: string) => {
      setNewChatPersonaId(personaId);
      setView((current) => ({ ...current, key: current.key + 1 }));
      setSidebarOpen(false);
      navigate('/chat');
    },
    [navigate],
  );

  const onSessionCreated = useCallback(
    (session: Session) => {
      setAdopted(session.id);
      navigate(`/chat/${session.id}`, { replace: true });
    },
    [navigate],
  );

  const onLanguageChange = (tag: string) => {
    setLanguage(tag);
    saveLanguage(tag);
  };

  const onVoiceModeChange = (on: boolean) => {
    setVoiceMode(on);
    saveVoiceMode(on);
  };

  return (
    <Workspace data-testid="chat-app">
      <PhoneBar>
        <Button
          type="button"
          variant="secondary"
          compact
          aria-expanded={sidebarOpen}
          aria-controls={sidebarId}
          onClick={() => setSidebarOpen((open) => !open)}
        >
          {sidebarOpen ? 'Hide chats' : 'Chats'}
        </Button>
        <Button type="button" variant="ghost" compact onClick={() => startNewChat(persona.id)}>
          + New chat
        </Button>
      </PhoneBar>
      <Sidebar
        id={sidebarId}
        open={sidebarOpen}
        activeSessionId={sessionId}
        onNewChat={() => startNewChat(persona.id)}
        onNavigate={() => setSidebarOpen(false)}
        onDeleted={(session) => {
          if (session.id === sessionId) navigate('/chat', { replace: true });
        }}
      />
      <Main>
        <PersonaPicker
          personas={personaList}
          selectedId={activePersonaId}
          isLoading={personas.isPending}
          error={personas.isError ? describeFailure(personas.error) : null}
          onRetry={() => void personas.refetch()}
          onSelect={(next) => {
            // Another persona is another conversation; the same one changes nothing.
            if (next.id !== activePersonaId) startNewChat(next.id);
          }}
        />
        <ConversationView
          key={view.key}
          sessionId={sessionId}
          persona={persona}
          language={replyLanguage}
          onLanguageChange={onLanguageChange}
          voiceAllowed={voiceAllowed}
          voiceMode={voiceMode}
          onVoiceModeChange={onVoiceModeChange}
          onSessionCreated={onSessionCreated}
        />
      </Main>
    </Workspace>
  );
}
