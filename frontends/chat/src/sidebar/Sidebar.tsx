import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';
import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import type { Session } from '@kasa/contracts';
import { Button } from '@kasa/ui';
import { MessageSearch } from './MessageSearch';
import { ServiceHealth } from './ServiceHealth';
import { SessionList } from './SessionList';
import { UserCard } from './UserCard';
import { VideosButton } from '../video/VideosButton';
import { useT } from '../i18n/useT';
import { useChatPaths } from '../chatPaths';

const slideInFromLeft = keyframes`
  from {
    transform: translateX(-100%);
  }
`;

const slideInFromRight = keyframes`
  from {
    transform: translateX(100%);
  }
`;

const Panel = styled.aside<{ open: boolean }>`
  /* Scrolls its own list: what is hidden for screen readers only in it scrolls with it. */
  position: relative;
  display: flex;
  flex-direction: column;
  gap: 1rem;
  min-height: 0;
  overflow-y: auto;
  padding: 1rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  h2 {
    margin: 0 0 0.375rem;
    font-size: 0.8125rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--kasa-muted);
  }
  /* On a phone: an off-canvas drawer from the inline-start edge (the right in Arabic), over a backdrop. */
  @media (max-width: 48rem) {
    display: ${({ open }) => (open ? 'flex' : 'none')};
    position: fixed;
    z-index: 40;
    inset-block: 0;
    inset-inline-start: 0;
    width: min(20rem, calc(100vw - 3.5rem));
    height: 100dvh;
    border-width: 0;
    border-inline-end-width: 1px;
    border-radius: 0;
    box-shadow: var(--kasa-shadow);
    overscroll-behavior: contain;
    /* Clear of a notch, the status bar and the home indicator. */
    padding: max(0.75rem, env(safe-area-inset-top)) max(1rem, env(safe-area-inset-right))
      max(1rem, env(safe-area-inset-bottom)) max(1rem, env(safe-area-inset-left));
    animation: ${slideInFromLeft} 180ms ease-out;
    [dir='rtl'] & {
      animation-name: ${slideInFromRight};
    }
    /* Touch targets of at least 44 px. */
    a,
    button {
      min-height: 2.75rem;
      min-width: 2.75rem;
    }
    > a,
    nav a {
      display: inline-flex;
      align-items: center;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

/** The drawer's own close button, at its top; wider screens have no drawer to close. */
const DrawerHead = styled.div`
  display: none;
  @media (max-width: 48rem) {
    display: flex;
    justify-content: flex-end;
  }
`;

const Brand = styled(Link)`
  font-size: 1.125rem;
  font-weight: 700;
  color: var(--kasa-fg);
  text-decoration: none;
`;

const Shortcuts = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 1rem;
  a {
    color: var(--kasa-primary);
  }
`;

/** The chat sidebar: Kasa Chat, shortcuts, new chat, search, my conversations, service health and who I am. */
export function Sidebar({
  id,
  ref,
  open,
  onClose,
  activeSessionId,
  onNewChat,
  onNavigate,
  onDeleted,
}: {
  id: string;
  ref?: Ref<HTMLElement>;
  /** On a phone the sidebar is a drawer, open or closed; wider screens always show it. */
  open: boolean;
  /** The drawer's Hide chats button was pressed. */
  onClose: () => void;
  activeSessionId: string | undefined;
  onNewChat: () => void;
  /** A link in the sidebar was followed (a phone then folds the sidebar). */
  onNavigate: () => void;
  onDeleted: (session: Session) => void;
}) {
  const t = useT();
  const paths = useChatPaths();
  return (
    <Panel
      id={id}
      ref={ref}
      open={open}
      aria-label={t('sidebar.label')}
      onClick={(event) => {
        if ((event.target as HTMLElement).closest('a')) onNavigate();
      }}
    >
      <DrawerHead>
        <Button
          type="button"
          variant="secondary"
          compact
          aria-expanded={open}
          aria-controls={id}
          onClick={onClose}
          data-drawer-close=""
        >
          {t('chat.hideChats')}
        </Button>
      </DrawerHead>
      <Brand to={paths.home}>{t('sidebar.brand')}</Brand>
      <Shortcuts aria-label={t('sidebar.shortcuts')}>
        <Link to="/">{t('sidebar.home')}</Link>
        <Link to="/developer">{t('sidebar.developer')}</Link>
      </Shortcuts>
      <Button type="button" onClick={onNewChat}>
        {t('sidebar.newChat')}
      </Button>
      <VideosButton />
      <MessageSearch />
      <SessionList activeSessionId={activeSessionId} onDeleted={onDeleted} />
      <ServiceHealth />
      <UserCard />
    </Panel>
  );
}
