import styled from '@emotion/styled';
import { useRedirectWhenSignedOut } from '../auth/useRedirectWhenSignedOut';
import { AuthRequired } from '../auth/AuthRequired';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { Actions, Button, ButtonLink, Card, Muted, PageContainer } from '../ui/controls';
import { PageSkeleton } from '../ui/Skeleton';

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.75rem;
  margin-bottom: 1.5rem;
  h1 {
    margin: 0;
  }
`;

const Badge = styled.span`
  padding: 0.125rem 0.625rem;
  border-radius: 999px;
  border: 1px solid var(--kasa-primary);
  color: var(--kasa-primary);
  font-weight: 600;
  font-size: 0.875rem;
`;

const Grid = styled.ul`
  list-style: none;
  margin: 0 0 1.5rem;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
  gap: var(--kasa-space, 1rem);
`;

const SettingCard = styled.li`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 1.25rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  h2 {
    margin: 0;
    font-size: 1.125rem;
  }
  p {
    margin: 0;
    flex: 1;
  }
`;

const COMING_SOON = [
  { title: 'Account', text: 'Your name, email address and password.' },
  { title: 'Notifications', text: 'What Kasa tells you about, and where.' },
  { title: 'Privacy & Security', text: 'Sessions, data export and two-step sign-in.' },
  { title: 'Language & Region', text: 'Your chat language, region and formats.' },
  { title: 'Voice & Audio', text: 'Voices, speaking rate and microphone.' },
] as const;

/** Route `/settings` (spec section 2): the theme card, five areas marked Coming Soon, and quick actions. */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  const { user, isLoading, isAuthenticated } = useRedirectWhenSignedOut();

  if (isLoading) return <PageSkeleton label="Loading settings…" />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired
        message="Please sign in to access global settings."
        action={<ButtonLink to="/auth">Sign In</ButtonLink>}
      />
    );
  }
  return (
    <PageContainer>
      <Header>
        <h1>Settings</h1>
        <Badge data-testid="settings-user">{user.username || user.email}</Badge>
      </Header>
      <Grid aria-label="Settings areas">
        <SettingCard>
          <h2>Theme Settings</h2>
          <Badge as="span" style={{ alignSelf: 'flex-start' }}>
            Personalized
          </Badge>
          <p>Light or dark, five colour schemes, presets, high contrast and text size.</p>
          <ButtonLink to="/theme-settings" compact>
            Open Theme Settings
          </ButtonLink>
        </SettingCard>
        {COMING_SOON.map(({ title, text }) => (
          <SettingCard key={title} aria-disabled="true">
            <h2>{title}</h2>
            <Muted as="span" style={{ alignSelf: 'flex-start' }}>
              Coming Soon
            </Muted>
            <p>{text}</p>
          </SettingCard>
        ))}
      </Grid>
      <Card aria-labelledby="quick-actions-title">
        <h2 id="quick-actions-title">Quick actions</h2>
        <Actions>
          <ButtonLink to="/theme-settings">Customize Theme</ButtonLink>
          <Button type="button" variant="secondary" disabled title="Coming soon">
            Test Notifications
          </Button>
          <Button type="button" variant="secondary" disabled title="Coming soon">
            Security Check
          </Button>
        </Actions>
      </Card>
    </PageContainer>
  );
}
