import styled from '@emotion/styled';
import { NavLink, Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { logout, tierLabel, useAuth } from '@kasa/api-client';
import { Button, ButtonLink } from '../ui/controls';
import { useThemeMode } from '../theme/ThemeModeProvider';

const Header = styled.header`
  position: sticky;
  top: 0;
  z-index: 10;
  background: var(--kasa-surface);
  border-bottom: 1px solid var(--kasa-border);
`;

const Bar = styled.nav`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1.25rem;
  max-width: 72rem;
  margin: 0 auto;
  padding: 0.625rem 1.25rem;
`;

const Brand = styled(Link)`
  color: var(--kasa-fg);
  font-size: 1.25rem;
  font-weight: 800;
  letter-spacing: -0.01em;
  text-decoration: none;
`;

const Links = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled(NavLink)`
  display: inline-block;
  padding: 0.5rem 0.75rem;
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  font-weight: 500;
  text-decoration: none;
  &:hover {
    background: var(--kasa-surface-muted);
  }
  &[aria-current='page'] {
    font-weight: 700;
    text-decoration: underline;
    text-decoration-thickness: 2px;
    text-underline-offset: 0.35em;
  }
`;

const Account = styled.div`
  display: flex;
  align-items: center;
  gap: 0.75rem;
  margin-left: auto;
`;

const Username = styled.span`
  font-weight: 600;
`;

const TierBadge = styled.span`
  padding: 0.125rem 0.625rem;
  border-radius: 999px;
  border: 1px solid var(--kasa-accent);
  color: var(--kasa-fg);
  font-size: 0.8125rem;
  font-weight: 700;
`;

const icon = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
} as const;

function ThemeToggle() {
  const { mode, toggleMode } = useThemeMode();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <Button type="button" variant="ghost" compact onClick={toggleMode} aria-label={`Switch to ${next} theme`}>
      {mode === 'dark' ? (
        <svg {...icon} aria-hidden="true">
          <circle cx="12" cy="12" r="4" />
          <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
        </svg>
      ) : (
        <svg {...icon} aria-hidden="true">
          <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
        </svg>
      )}
    </Button>
  );
}

/** Home and Pricing always; Chat, Developer and Settings when signed in; the account area on the right. */
export function NavBar() {
  const { user, isAuthenticated, isLoading } = useAuth();
  const queryClient = useQueryClient();

  return (
    <Header>
      <Bar aria-label="Main">
        <Brand to="/" aria-label="Kasa home">
          Kasa
        </Brand>
        <Links>
          <li>
            <Item to="/" end>
              Home
            </Item>
          </li>
          <li>
            <Item to="/pricing">Pricing</Item>
          </li>
          {isAuthenticated ? (
            <>
              <li>
                <Item to="/chat">Chat</Item>
              </li>
              <li>
                <Item to="/developer">Developer</Item>
              </li>
              <li>
                <Item to="/settings">Settings</Item>
              </li>
            </>
          ) : null}
        </Links>
        <Account>
          <ThemeToggle />
          {isLoading ? null : isAuthenticated ? (
            <>
              <Username data-testid="nav-username">{user?.username || 'User'}</Username>
              <TierBadge data-testid="nav-tier" title="Subscription tier">
                {tierLabel(user?.subscriptionTier)}
              </TierBadge>
              <Button type="button" variant="secondary" compact onClick={() => logout(queryClient)}>
                Logout
              </Button>
            </>
          ) : (
            <ButtonLink to="/welcome" compact>
              Sign In
            </ButtonLink>
          )}
        </Account>
      </Bar>
    </Header>
  );
}
