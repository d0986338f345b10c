import styled from '@emotion/styled';
import { useRedirectWhenSignedOut } from '../auth/useRedirectWhenSignedOut';
import { AuthRequired } from '../auth/AuthRequired';
import { BillingSettings } from '../billing/BillingSettings';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { Actions, Button, ButtonLink, Card, Muted, PageContainer, PageSkeleton } from '@kasa/ui';
import { LanguageSettings } from '../i18n/LanguagePicker';
import { useT, type MessageId } from '../i18n/useT';

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

const COMING_SOON: ReadonlyArray<{ title: MessageId; text: MessageId }> = [
  { title: 'settings.account', text: 'settings.accountText' },
  { title: 'settings.notifications', text: 'settings.notificationsText' },
  { title: 'settings.privacy', text: 'settings.privacyText' },
  { title: 'settings.region', text: 'settings.regionText' },
  { title: 'settings.voice', text: 'settings.voiceText' },
];

/**
 * Route `/settings` (spec section 2): the plan and billing (the subscription, with Manage payment, Cancel and Resume),
 * the theme card, the interface language (every language with its review status), the areas marked Coming Soon, and
 * quick actions.
 */
export default function SettingsPage() {
  const t = useT();
  useDocumentTitle(t('nav.settings'));
  const { user, isLoading, isAuthenticated } = useRedirectWhenSignedOut();

  if (isLoading) return <PageSkeleton label={t('settings.loading')} />;
  if (!isAuthenticated || !user) {
    return (
      <AuthRequired
        message={t('settings.signInNeeded')}
        action={<ButtonLink to="/auth">{t('nav.signIn')}</ButtonLink>}
      />
    );
  }
  return (
    <PageContainer>
      <Header>
        <h1>{t('nav.settings')}</h1>
        <Badge data-testid="settings-user">{user.username || user.email}</Badge>
      </Header>
      <BillingSettings />
      <Grid aria-label={t('settings.areas')}>
        <SettingCard>
          <h2>{t('settings.theme')}</h2>
          <Badge as="span" style={{ alignSelf: 'flex-start' }}>
            {t('settings.personalized')}
          </Badge>
          <p>{t('settings.themeText')}</p>
          <ButtonLink to="/theme-settings" compact>
            {t('settings.openTheme')}
          </ButtonLink>
        </SettingCard>
        <SettingCard style={{ gridColumn: '1 / -1' }}>
          <h2 id="language-settings-title">{t('settings.language')}</h2>
          <p>{t('settings.languageText')}</p>
          <LanguageSettings />
        </SettingCard>
        {COMING_SOON.map(({ title, text }) => (
          <SettingCard key={title} aria-disabled="true">
            <h2>{t(title)}</h2>
            <Muted as="span" style={{ alignSelf: 'flex-start' }}>
              {t('settings.comingSoon')}
            </Muted>
            <p>{t(text)}</p>
          </SettingCard>
        ))}
      </Grid>
      <Card aria-labelledby="quick-actions-title">
        <h2 id="quick-actions-title">{t('settings.quickActions')}</h2>
        <Actions>
          <ButtonLink to="/theme-settings">{t('settings.customizeTheme')}</ButtonLink>
          <Button type="button" variant="secondary" disabled title={t('settings.comingSoon')}>
            {t('settings.testNotifications')}
          </Button>
          <Button type="button" variant="secondary" disabled title={t('settings.comingSoon')}>
            {t('settings.securityCheck')}
          </Button>
        </Actions>
      </Card>
    </PageContainer>
  );
}
