import styled from '@emotion/styled';
import { useEffect, useState } from 'react';
import { NavLink, Link, useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { logout, tierLabel, useAuth } from '@kasa/api-client';
import { Button, ButtonLink } from '../ui/controls';
import { MenuButton, MenuItem } from '../ui/MenuButton';
import { useTheme } from '../theme/ThemeProvider';
import { COLOR_SCHEMES, themeTokens } from '../theme/tokens';
import { toast } from '../toast/toastStore';
import { useTours } from '../tours/TourProvider';

/** Below this width the links and the account area fold behind the Menu button. */
const PHONE = '@media (max-width: 48rem)';

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

const Links = styled.ul<{ open: boolean }>`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem;
  margin: 0;
  padding: 0;
  list-style: none;
  ${PHONE} {
    display: ${({ open }) => (open ? 'flex' : 'none')};
    order: 3;
    width: 100%;
    flex-direction: column;
  }
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

const Tools = styled.div`
  display: flex;
  align-items: center;
  gap: 0.25rem;
  margin-left: auto;
`;

const Account = styled.div<{ open: boolean }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.75rem;
  ${PHONE} {
    display: ${({ open }) => (open ? 'flex' : 'none')};
    order: 4;
    width: 100%;
    padding: 0.5rem 0.75rem 0.25rem;
    border-top: 1px solid var(--kasa-border);
  }
`;

const MobileToggle = styled(Button)`
  display: none;
  ${PHONE} {
    display: inline-flex;
  }
`;

const Swatch = styled.span`
  width: 1rem;
  height: 1rem;
  border-radius: 50%;
  border: 1px solid var(--kasa-border);
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

const SCHEME_LABELS = { electric: 'Electric', cyber: 'Cyber', neon: 'Neon', quantum: 'Quantum', mono: 'Mono' } as const;

/** The theme picker: light/dark, the five colour schemes and a way to the full theme settings. */
function ThemePicker() {
  const { settings, toggleMode, setColorScheme } = useTheme();
  const navigate = useNavigate();
  const next = settings.mode === 'dark' ? 'light' : 'dark';
  return (
    <div data-tour="nav-theme">
      <MenuButton
        label="Theme"
        testId="theme-picker"
        trigger={
          settings.mode === 'dark' ? (
            <svg {...icon} aria-hidden="true">
              <circle cx="12" cy="12" r="4" />
              <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
            </svg>
          ) : (
            <svg {...icon} aria-hidden="true">
              <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
            </svg>
          )
        }
      >
        {(close) => (
          <>
            <MenuItem type="button" onClick={toggleMode}>
              Switch to {next} mode
            </MenuItem>
            <h2>Colour scheme</h2>
            {COLOR_SCHEMES.map((scheme) => (
              <MenuItem
                key={scheme}
                type="button"
                aria-pressed={settings.colorScheme === scheme}
                onClick={() => setColorScheme(scheme)}
              >
                <Swatch
                  aria-hidden="true"
                  style={{ background: themeTokens(settings.mode, scheme, false)['--kasa-primary'] }}
                />
                {SCHEME_LABELS[scheme]}
              </MenuItem>
            ))}
            <MenuItem
              type="button"
              onClick={() => {
                close();
                navigate('/theme-settings');
              }}
            >
              All theme settings…
            </MenuItem>
          </>
        )}
      </MenuButton>
    </div>
  );
}

/** Help & Tours: start any guided tour, reset them all, or go to the help page. */
function HelpMenu() {
  const { tours, guidance, startTour, resetAllTours } = useTours();
  const navigate = useNavigate();
  return (
    <div data-tour="nav-help">
      <MenuButton
        label="Help & Tours"
        testId="help-menu"
        trigger={
          <svg {...icon} aria-hidden="true">
            <circle cx="12" cy="12" r="10" />
            <path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01" />
          </svg>
        }
      >
        {(close) => (
          <>
            <h2>Guided tours</h2>
            {tours.map((tour) => (
              <MenuItem
                key={tour.id}
                type="button"
                onClick={() => {
                  close();
                  if (tour.targetRoute !== window.location.pathname) navigate(tour.targetRoute);
                  startTour(tour.id);
                }}
              >
                {tour.name}
                {guidance.completedTours.includes(tour.id) ? ' ✓' : ''}
              </MenuItem>
            ))}
            <MenuItem
              type="button"
              onClick={() => {
                resetAllTours();
                close();
                toast({ title: 'Tours Reset', description: 'Every guided tour will show again.' });
              }}
            >
              Reset All Tours
            </MenuItem>
            <MenuItem
              type="button"
              onClick={() => {
                close();
                navigate('/help');
              }}
            >
              Help centre
            </MenuItem>
          </>
        )}
      </MenuButton>
    </div>
  );
}

/** Home and Pricing always; Chat, Developer and Settings when signed in; the account area on the right. */
export function NavBar() {
  const { user, isAuthenticated, isLoading } = useAuth();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  // A phone's menu closes once a link has taken the person somewhere.
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <Header>
      <Bar aria-label="Main">
        <Brand to="/" aria-label="Kasa home">
          Kasa
        </Brand>
        <Links id="main-menu" open={menuOpen}>
          <li>
            <Item to="/" end>
              Home
            </Item>
          </li>
          <li>
            <Item to="/pricing" data-tour="nav-pricing">
              Pricing
            </Item>
          </li>
          {isAuthenticated ? (
            <>
              <li>
                <Item to="/chat" data-tour="nav-chat">
                  Chat
                </Item>
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
        <Tools>
          <HelpMenu />
          <ThemePicker />
          <MobileToggle
            type="button"
            variant="ghost"
            compact
            aria-expanded={menuOpen}
            aria-controls="main-menu account-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? 'Close' : 'Menu'}
          </MobileToggle>
        </Tools>
        <Account id="account-menu" open={menuOpen}>
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
