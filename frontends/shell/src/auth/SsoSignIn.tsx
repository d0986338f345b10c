import styled from '@emotion/styled';
import { useState, type FormEvent } from 'react';
import type { SsoStartResponse } from '@kasa/contracts';
import { apiJson, describeFailure, isApiError } from '@kasa/api-client';
import { Button, Muted } from '@kasa/ui';
import { Field } from '@kasa/ui/widgets';
import { toast } from '../toast/toastStore';
import { useT } from '../i18n/useT';

const Section = styled.div`
  margin-top: 1.25rem;
  padding-top: 1rem;
  border-top: 1px solid var(--kasa-border);
`;

const Wide = styled(Button)`
  width: 100%;
`;

/**
 * "Sign in with your organisation (SSO)" under the password form: the work address names the team whose identity
 * provider signs the person in; the browser goes there and comes back to /auth/sso/callback.
 */
export function SsoSignIn() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [starting, setStarting] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (starting) return;
    if (!email.trim()) {
      toast({ title: t('sso.failedTitle'), description: t('auth.sso.emailNeeded'), variant: 'destructive' });
      return;
    }
    setStarting(true);
    try {
      const { redirectUrl } = await apiJson<SsoStartResponse>('POST', '/api/auth/sso/start', { email: email.trim() });
      window.location.assign(redirectUrl);
    } catch (error) {
      const description = isApiError(error) && error.status === 404 ? t('auth.sso.noTeam') : describeFailure(error);
      toast({ title: t('sso.failedTitle'), description, variant: 'destructive' });
      setStarting(false);
    }
  };

  if (!open) {
    return (
      <Section>
        <Wide type="button" variant="secondary" onClick={() => setOpen(true)}>
          {t('auth.sso.button')}
        </Wide>
      </Section>
    );
  }
  return (
    <Section>
      <form onSubmit={onSubmit} noValidate aria-label={t('auth.sso.button')} aria-busy={starting}>
        <Muted>{t('auth.sso.intro')}</Muted>
        <Field
          label={t('auth.sso.email')}
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          disabled={starting}
        />
        <Wide type="submit" disabled={starting}>
          {starting ? t('auth.sso.starting') : t('auth.sso.continue')}
        </Wide>
      </form>
    </Section>
  );
}
