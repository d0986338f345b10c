import styled from '@emotion/styled';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { TeamSsoResponse } from '@kasa/contracts';
import { Button, InlineError, Muted, TextInput } from '@kasa/ui';
import { CopyButton, Label } from '@kasa/ui/widgets';
import { useRemoveTeamSso, useSaveTeamSso, useTeamSso } from '../api/teamSso';
import { useDescribeFailure } from '../i18n/describeFailure';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { Card, Row } from '../ui/controls';
import { LoadError, Loading } from '../ui/States';

const Fields = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  margin-bottom: 1rem;
`;

const Check = styled.label`
  display: flex;
  gap: 0.5rem;
  align-items: flex-start;
`;

const Code = styled.code`
  overflow-wrap: anywhere;
`;

// Examples of the values' shape, the same in every language.
const ISSUER_EXAMPLE = 'https://login.example.com';
const DOMAINS_EXAMPLE = 'example.com, example.org';

/** The domains as typed (commas, spaces or lines between them), lower-cased; the API checks each one. */
const domainsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);

interface Draft {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  requireSso: boolean;
}

const draftOf = (sso: TeamSsoResponse['sso']): Draft => ({
  issuer: sso?.issuer ?? '',
  clientId: sso?.clientId ?? '',
  clientSecret: '',
  domains: sso?.domains.join(', ') ?? '',
  requireSso: sso?.requireSso ?? false,
});

/**
 * Single sign-on (OpenID Connect) for the team's owner: the provider's issuer, the client id and secret registered
 * there, the e-mail domains it covers, and whether they must use it. The secret is never shown again once saved.
 */
export function TeamSsoSection({
  confirm,
}: {
  /** Asks for a confirmation before a destructive step (the tab's dialog). */
  confirm: (pending: { title: string; body: ReactNode; confirmLabel: string; run: () => Promise<unknown> }) => void;
}) {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const ids = { issuer: useId(), clientId: useId(), secret: useId(), domains: useId() };
  const settings = useTeamSso(true);
  const save = useSaveTeamSso();
  const remove = useRemoveTeamSso();
  const sso = settings.data?.sso ?? null;
  const [draft, setDraft] = useState<Draft>(draftOf(null));
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (settings.data) setDraft(draftOf(settings.data.sso));
  }, [settings.data]);

  const change = (field: keyof Draft) => (value: string | boolean) => {
    setSaved(false);
    setDraft((current) => ({ ...current, [field]: value }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate(
      {
        issuer: draft.issuer.trim(),
        clientId: draft.clientId.trim(),
        ...(draft.clientSecret ? { clientSecret: draft.clientSecret } : {}),
        domains: domainsOf(draft.domains),
        requireSso: draft.requireSso,
      },
      { onSuccess: () => setSaved(true) },
    );
  };

  const askRemove = () =>
    confirm({
      title: t('sso.removeTitle'),
      body: <p>{t('sso.removeText')}</p>,
      confirmLabel: t('sso.remove'),
      run: () => remove.mutateAsync(),
    });

  return (
    <Card aria-labelledby="team-sso-title" data-testid="team-sso">
      <h2 id="team-sso-title">{t('sso.title')}</h2>
      <Muted style={{ marginBottom: '1rem' }}>{t('sso.intro')}</Muted>
      {settings.isPending ? <Loading>{t('sso.loading')}</Loading> : null}
      {settings.isError ? (
        <LoadError
          message={t('sso.failed', { reason: describeFailure(settings.error) })}
          onRetry={() => void settings.refetch()}
        />
      ) : null}
      {settings.data ? (
        <form onSubmit={onSubmit} noValidate aria-labelledby="team-sso-title">
          <Muted>{t('sso.redirectUri')}</Muted>
          <Row style={{ alignItems: 'center', marginBottom: '1rem' }}>
            <Code data-testid="sso-redirect-uri">{settings.data.redirectUri}</Code>
            <CopyButton text={settings.data.redirectUri} context={t('sso.redirectUriName')} />
          </Row>
          <Fields>
            <div>
              <Label htmlFor={ids.issuer}>{t('sso.issuer')}</Label>
              <TextInput
                id={ids.issuer}
                type="url"
                value={draft.issuer}
                maxLength={500}
                placeholder={ISSUER_EXAMPLE}
                onChange={(event) => change('issuer')(event.target.value)}
                disabled={save.isPending}
              />
            </div>
            <div>
              <Label htmlFor={ids.clientId}>{t('sso.clientId')}</Label>
              <TextInput
                id={ids.clientId}
                value={draft.clientId}
                maxLength={255}
                autoComplete="off"
                onChange={(event) => change('clientId')(event.target.value)}
                disabled={save.isPending}
              />
            </div>
            <div>
              <Label htmlFor={ids.secret}>{t('sso.clientSecret')}</Label>
              <TextInput
                id={ids.secret}
                type="password"
                value={draft.clientSecret}
                maxLength={1000}
                autoComplete="new-password"
                placeholder={sso?.clientSecret === 'set' ? t('sso.secretKept') : ''}
                onChange={(event) => change('clientSecret')(event.target.value)}
                disabled={save.isPending}
              />
            </div>
            <div>
              <Label htmlFor={ids.domains}>{t('sso.domains')}</Label>
              <TextInput
                id={ids.domains}
                value={draft.domains}
                placeholder={DOMAINS_EXAMPLE}
                onChange={(event) => change('domains')(event.target.value)}
                disabled={save.isPending}
              />
            </div>
            <Check>
              <input
                type="checkbox"
                checked={draft.requireSso}
                onChange={(event) => change('requireSso')(event.target.checked)}
                disabled={save.isPending}
              />
              <span>{t('sso.requireSso')}</span>
            </Check>
          </Fields>
          {save.isError ? (
            <InlineError role="alert">{t('sso.saveFailed', { reason: describeFailure(save.error) })}</InlineError>
          ) : null}
          {remove.isError ? (
            <InlineError role="alert">{t('sso.removeFailed', { reason: describeFailure(remove.error) })}</InlineError>
          ) : null}
          {saved ? (
            <Muted role="status" data-testid="sso-saved">
              {t('sso.saved')}
            </Muted>
          ) : null}
          <Row>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? t('sso.saving') : t('sso.save')}
            </Button>
            {sso ? (
              <Button type="button" variant="danger" onClick={askRemove} disabled={remove.isPending}>
                {t('sso.remove')}
              </Button>
            ) : null}
          </Row>
        </form>
      ) : null}
    </Card>
  );
}
