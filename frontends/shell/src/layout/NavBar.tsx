import styled from '@emotion/styled';
import { useEffect, useState } from 'react';
import { NavLink, Link, useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { logout, tierLabel, useAuth } from '@kasa/api-client';
import { Button, ButtonLink, Check, CircleHelp, ICON, Moon, Sun, TOUCH_MEDIA, TOUCH_TARGET } from '@kasa/ui';
import { COLOR_SCHEMES, themeTokens } from '@kasa/ui/tokens';
import { MenuButton, MenuItem } from '../ui/MenuButton';
import { useTheme } from '../theme/ThemeProvider';
import { toast } from '../toast/toastStore';
import { useTours } from '../tours/TourProvider';
import { useIsOperator } from '../auth/useOperator';
import { LanguageMenu } from '../i18n/LanguagePicker';
import { useT, type MessageId } from '../i18n/useT';

/** The product's name, the same in every language. */
const PRODUCT_NAME = 'Kasa';

/** Below this width the links and the account area fold behind the Menu button. */
const PHONE = '@media (max-width: 48rem)';

const Header = styled.header`
  position: sticky;
  top: 0;
  z-index: 10;
  background: var(--kasa-surface);
  border-bottom: 1px solid var(--kasa-border);
  /* viewport-fit=cover: on a notched phone the bar keeps clear of the status bar and, held sideways, the notch. */
  padding-top: env(safe-area-inset-top);
`;

const Bar = styled.nav`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1.25rem;
  max-width: 72rem;
  margin: 0 auto;
  padding: 0.625rem max(1.25rem, env(safe-area-inset-right)) 0.625rem max(1.25rem, env(safe-area-inset-left));
`;

const Brand = styled(Link)`
  color: var(--kasa-fg);
  font-size: 1.25rem;
  font-weight: 800;
  letter-spacing: -0.01em;
  text-decoration: none;
  ${TOUCH_MEDIA} {
    display: inline-flex;
    align-items: center;
    min-height: ${TOUCH_TARGET};
  }
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
  ${TOUCH_MEDIA} {
    display: flex;
    align-items: center;
    min-height: ${TOUCH_TARGET};
  }
`;

const Tools = styled.div`
  display: flex;
  align-items: center;
  gap: 0.25rem;
  margin-inline-start: auto;
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

/** The colour schemes' names are product names, the same in every language. */
const SCHEME_LABELS = { electric: 'Electric', cyber: 'Cyber', neon: 'Neon', quantum: 'Quantum', mono: 'Mono' } as const;

/** The theme picker: light/dark, the five colour schemes and a way to the full theme settings. */
function ThemePicker() {
  const { settings, toggleMode, setColorScheme } = useTheme();
  const navigate = useNavigate();
  const t = useT();
  return (
    <div data-tour="nav-theme">
      <MenuButton
        label={t('nav.theme')}
        testId="theme-picker"
        trigger={settings.mode === 'dark' ? <Sun {...ICON} size={20} /> : <Moon {...ICON} size={20} />}
      >
        {(close) => (
          <>
            <MenuItem type="button" onClick={toggleMode}>
              {settings.mode === 'dark' ? t('nav.theme.toLight') : t('nav.theme.toDark')}
            </MenuItem>
            <h2>{t('nav.theme.colourScheme')}</h2>
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
              {t('nav.theme.all')}
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
  const t = useT();
  return (
    <div data-tour="nav-help">
      <MenuButton label={t('nav.help')} testId="help-menu" trigger={<CircleHelp {...ICON} size={20} />}>
        {(close) => (
          <>
            <h2>{t('nav.help.tours')}</h2>
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
                {t(`tours.${tour.id}.name` as MessageId)}
                {guidance.completedTours.includes(tour.id) ? (
                  <Check {...ICON} aria-label={t('nav.help.completed')} aria-hidden={false} role="img" />
                ) : null}
              </MenuItem>
            ))}
            <MenuItem
              type="button"
              onClick={() => {
                resetAllTours();
                close();
                toast({ title: t('nav.help.resetDone'), description: t('nav.help.resetDoneText') });
              }}
            >
              {t('nav.help.reset')}
            </MenuItem>
            <MenuItem
              type="button"
              onClick={() => {
                close();
                navigate('/help');
              }}
            >
              {t('nav.help.centre')}
            </MenuItem>
          </>
        )}
      </MenuButton>
    </div>
  );
}

/**
 * Home and Pricing always; Chat, Developer and Settings when signed in, and the operator console and "Set up AI" for
 * operators; the account area on the right.
 */
export function NavBar() {
  const { user, isAuthenticated, isLoading } = useAuth();
  const operator = useIsOperator();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const t = useT();

  // A phone's menu closes once a link has taken the person somewhere.
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <Header>
      <Bar aria-label={t('nav.main')}>
        <Brand to="/" aria-label={t('nav.brandHome')}>
          {PRODUCT_NAME}
        </Brand>
        <Links id="main-menu" open={menuOpen}>
          <li>
            <Item to="/" end>
              {t('nav.home')}
            </Item>
          </li>
          <li>
            <Item to="/pricing" data-tour="nav-pricing">
              {t('nav.pricing')}
            </Item>
          </li>
          {isAuthenticated ? (
            <>
              <li>
                <Item to="/chat" data-tour="nav-chat">
                  {t('nav.chat')}
                </Item>
              </li>
              <li>
                <Item to="/developer">{t('nav.developer')}</Item>
              </li>
              <li>
                <Item to="/settings">{t('nav.settings')}</Item>
              </li>
              {operator.data ? (
                <>
                  <li>
                    <Item to="/admin">{t('nav.admin')}</Item>
                  </li>
                  <li>
                    {/* The setup page's Connect AI step, which works again at any time for an operator. */}
                    <Item to="/setup?step=ai">{t('nav.setupAi')}</Item>
                  </li>
                </>
              ) : null}
            </>
          ) : null}
        </Links>
        <Tools>
          <LanguageMenu />
          <HelpMenu />
          <ThemePicker />
          <MobileToggle
            type="button"
            variant="ghost"
            compact
            aria-expanded={menuOpen}
            aria-controls="main-menu account-menu"
            onClick={() => setMenuOpen((open) => !open)}
            data-testid="menu-toggle"
          >
            {menuOpen ? t('nav.close') : t('nav.menu')}
          </MobileToggle>
        </Tools>
        <Account id="account-menu" open={menuOpen}>
          {isLoading ? null : isAuthenticated ? (
            <>
              <Username data-testid="nav-username">{user?.username || t('nav.user')}</Username>
              <TierBadge data-testid="nav-tier" title={t('nav.tier')}>
                {tierLabel(user?.subscriptionTier)}
              </TierBadge>
              <Button type="button" variant="secondary" compact onClick={() => logout(queryClient)}>
                {t('nav.logout')}
              </Button>
            </>
          ) : (
            <ButtonLink to="/welcome" compact>
              {t('nav.signIn')}
            </ButtonLink>
          )}
        </Account>
      </Bar>
    </Header>
  );
}
