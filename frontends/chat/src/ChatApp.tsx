import styled from '@emotion/styled';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { useBasePath } from '@kasa/ui/routing';
import { useAuth } from '@kasa/api-client';
import type { Persona, Session } from '@kasa/contracts';
import { usePersonas, useSessionMessages } from './api/chatQueries';
import { ConversationView } from './conversation/ConversationView';
import { isFreeLanguageChoice, loadLanguage, saveLanguage } from './conversation/languages';
import { describeFailure } from './conversation/useConversation';
import { PersonaPicker } from './personas/PersonaPicker';
import { Sidebar } from './sidebar/Sidebar';
import { Button } from '@kasa/ui';
import { loadVoiceMode, planHasVoice, saveVoiceMode } from './voice/voicePreferences';
import { RemoteCatalogue } from '@kasa/i18n';
import { CHAT_ENGLISH, CHAT_LOADERS } from './i18n/catalogues';
import { useT } from './i18n/useT';
import { ChatBaseContext, useChatPaths } from './chatPaths';

/** At this width and below the sidebar becomes a drawer and the composer is pinned to the bottom of the screen. */
const PHONE_QUERY = '(max-width: 48rem)';

const Workspace = styled.div`
  display: grid;
  grid-template-columns: minmax(14rem, 18rem) minmax(0, 1fr);
  grid-template-rows: minmax(0, 1fr);
  gap: 1rem;
  width: 100%;
  max-width: 80rem;
  margin: 0 auto;
  padding: 1rem 1rem 1.5rem;
  /* The shell's frame gives the chat the screen below its navigation bar: the workspace fills it, and only the
     conversation and the sidebar's list scroll, so the composer stays in view. Running alone, it is the screen. */
  flex: 1 1 0;
  min-height: 0;
  height: 100dvh;
  @media ${PHONE_QUERY} {
    grid-template-columns: minmax(0, 1fr);
    /* The bar, then the conversation; the sidebar is a drawer (position: fixed), out of the grid. */
    grid-template-rows: auto minmax(0, 1fr);
    gap: 0.5rem;
    /* Notched phones held sideways: keep clear of the cut-outs. */
    padding: 0.5rem max(0.5rem, env(safe-area-inset-right)) 0.5rem max(0.5rem, env(safe-area-inset-left));
    /* Never so short that the composer squeezes the conversation away (a phone held sideways): the shell's frame
       then scrolls. */
    min-height: 18rem;
  }
`;

const Main = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  min-height: 0;
  min-width: 0;
  @media ${PHONE_QUERY} {
    gap: 0.5rem;
  }
`;

const PhoneBar = styled.div`
  display: none;
  @media ${PHONE_QUERY} {
    display: flex;
    justify-content: space-between;
    gap: 0.5rem;
    button {
      min-height: 2.75rem;
    }
    /* While the drawer is open its own Hide chats button stands for this one. */
    button[aria-expanded='true'] {
      visibility: hidden;
    }
  }
`;

/** Dims the conversation behind the open drawer; a tap on it closes the drawer. */
const Backdrop = styled.div`
  display: none;
  @media ${PHONE_QUERY} {
    display: block;
    position: fixed;
    inset: 0;
    z-index: 39;
    background: rgba(15, 23, 42, 0.5);
  }
`;

/** Follows a media query (false before the first render in a browser that lacks matchMedia). */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia?.(query).matches ?? false);
  useEffect(() => {
    const list = window.matchMedia?.(query);
    if (!list) return;
    const onChange = () => setMatches(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

/**
 * Makes everything on the page outside `keep` inert (no focus, no clicks, hidden from assistive technology) until
 * the returned function restores it: the elements beside each of `keep`'s ancestors, up to <body>, so the shell's
 * navigation and footer are covered too. Elements that were already inert stay so.
 */
function inertOutside(keep: readonly HTMLElement[]): () => void {
  const changed: HTMLElement[] = [];
  const kept = (element: Element) => keep.some((k) => element === k || element.contains(k));
  for (const start of keep) {
    for (let node: HTMLElement | null = start; node && node !== document.body; node = node.parentElement) {
      for (const sibling of node.parentElement?.children ?? []) {
        if (!(sibling instanceof HTMLElement) || kept(sibling) || sibling.inert) continue;
        if (['SCRIPT', 'STYLE', 'LINK', 'TEMPLATE'].includes(sibling.tagName)) continue;
        sibling.inert = true;
        changed.push(sibling);
      }
    }
  }
  return () => changed.forEach((element) => (element.inert = false));
}

const DEFAULT_PERSONA_ID = 'kasa';

/** Shown until the personas arrive (or when a session's persona is no longer offered). */
const fallbackPersona = (id: string): Persona => ({
  id,
  name: id.charAt(0).toUpperCase() + id.slice(1),
  expertise: 'Assistant',
  systemPrompt: '',
});

/**
 * The chat workspace, at the chat's base and <base>/:sessionId for a signed-in user: sidebar, persona
 * picker and the conversation. The URL names the open session, so a reload opens it again.
 */
function ChatWorkspace() {
  const t = useT();
  const { sessionId } = useParams();
  const navigate = useNavigate();
  const paths = useChatPaths();
  const personas = usePersonas();
  const openSession = useSessionMessages(sessionId);
  const sidebarId = useId();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const phone = useMediaQuery(PHONE_QUERY);
  // On a phone the sidebar is a drawer over the conversation; wider screens always show it beside.
  const drawerOpen = sidebarOpen && phone;
  const toggle = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
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
      navigate(paths.home);
    },
    [navigate, paths.home],
  );

  const onSessionCreated = useCallback(
    (session: Session) => {
      setAdopted(session.id);
      navigate(paths.session(session.id), { replace: true });
    },
    [navigate, paths],
  );

  const onLanguageChange = (tag: string) => {
    setLanguage(tag);
    saveLanguage(tag);
  };

  const onVoiceModeChange = (on: boolean) => {
    setVoiceMode(on);
    saveVoiceMode(on);
  };

  // Leaving the phone layout (a rotated tablet, a wider window) leaves no drawer open to come back to.
  useEffect(() => {
    if (!phone) setSidebarOpen(false);
  }, [phone]);

  // The open drawer is modal: the rest of the page is inert, focus moves into it, Escape closes it, and focus goes
  // back to the toggle when it closes (however it closes: Escape, the backdrop, a conversation, New chat).
  useEffect(() => {
    if (!drawerOpen || !drawer.current || !backdrop.current) return;
    const panel = drawer.current;
    const toggleButton = toggle.current;
    const restore = inertOutside([panel, backdrop.current]);
    panel.querySelector<HTMLElement>('[data-drawer-close]')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog opened from the drawer (delete) or a field that uses Escape itself (rename) takes it first.
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest('dialog')) return;
      setSidebarOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      restore();
      const focused = document.activeElement;
      // Focus in the drawer, on the page itself or on the element holding the page (a tap on the backdrop) goes back
      // to the toggle; focus that moved elsewhere on purpose stays.
      if (!focused || focused === document.body || panel.contains(focused) || focused.contains(panel)) {
        toggleButton?.focus();
      }
    };
  }, [drawerOpen]);

  return (
    <Workspace data-testid="chat-app">
      <PhoneBar inert={drawerOpen}>
        <Button
          ref={toggle}
          type="button"
          variant="secondary"
          compact
          aria-expanded={sidebarOpen}
          aria-controls={sidebarId}
          onClick={() => setSidebarOpen((open) => !open)}
          data-testid="sidebar-toggle"
        >
          {sidebarOpen ? t('chat.hideChats') : t('chat.chats')}
        </Button>
        <Button
          type="button"
          variant="ghost"
          compact
          onClick={() => startNewChat(persona.id)}
          data-testid="phone-new-chat"
        >
          {t('sidebar.newChat')}
        </Button>
      </PhoneBar>
      {drawerOpen ? (
        <Backdrop
          ref={backdrop}
          aria-hidden="true"
          data-testid="drawer-backdrop"
          onClick={() => setSidebarOpen(false)}
        />
      ) : null}
      <Sidebar
        id={sidebarId}
        ref={drawer}
        open={sidebarOpen}
        onClose={() => setSidebarOpen(false)}
        activeSessionId={sessionId}
        onNewChat={() => startNewChat(persona.id)}
        onNavigate={() => setSidebarOpen(false)}
        onDeleted={(session) => {
          if (session.id === sessionId) navigate(paths.home, { replace: true });
        }}
      />
      <Main inert={drawerOpen}>
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

/**
 * What the shell mounts on a splat route (`chat/*`): the workspace with the chat's messages in the shell's language,
 * on the chat's own routes — a new conversation at its base, one conversation at `<base>/<sessionId>`, and anything
 * deeper back to the base.
 */
export default function ChatApp() {
  const base = useBasePath();
  return (
    <RemoteCatalogue english={CHAT_ENGLISH} loaders={CHAT_LOADERS}>
      <ChatBaseContext.Provider value={base}>
        <Routes>
          <Route path=":sessionId?" element={<ChatWorkspace />} />
          <Route path="*" element={<Navigate to={base} replace />} />
        </Routes>
      </ChatBaseContext.Provider>
    </RemoteCatalogue>
  );
}
