import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import type { Session } from '@kasa/contracts';
import { Button } from '../ui/controls';
import { MessageSearch } from './MessageSearch';
import { ServiceHealth } from './ServiceHealth';
import { SessionList } from './SessionList';
import { UserCard } from './UserCard';

const Panel = styled.aside<{ open: boolean }>`
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
  @media (max-width: 48rem) {
    display: ${({ open }) => (open ? 'flex' : 'none')};
    max-height: 70vh;
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
  open,
  activeSessionId,
  onNewChat,
  onNavigate,
  onDeleted,
}: {
  id: string;
  /** On a phone the sidebar folds away behind a toggle; wider screens always show it. */
  open: boolean;
  activeSessionId: string | undefined;
  onNewChat: () => void;
  /** A link in the sidebar was followed (a phone then folds the sidebar). */
  onNavigate: () => void;
  onDeleted: (session: Session) => void;
}) {
  return (
    <Panel
      id={id}
      open={open}
      aria-label="Chat sidebar"
      onClick={(event) => {
        if ((event.target as HTMLElement).closest('a')) onNavigate();
      }}
    >
      <Brand to="/chat">Kasa Chat</Brand>
      <Shortcuts aria-label="Chat shortcuts">
        <Link to="/">Home</Link>
        <Link to="/developer">Developer Portal</Link>
      </Shortcuts>
      <Button type="button" onClick={onNewChat}>
        + New chat
      </Button>
      <MessageSearch />
      <SessionList activeSessionId={activeSessionId} onDeleted={onDeleted} />
      <ServiceHealth />
      <UserCard />
    </Panel>
  );
}
