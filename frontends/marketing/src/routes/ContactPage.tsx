import styled from '@emotion/styled';
import { useState, type FormEvent } from 'react';
import { isApiError } from '@kasa/api-client';
import { CONTACT_FIELD_LIMITS as LIMITS, looksLikeEmail, sendContactMessage } from '../api/outreach';
import { FormField } from '../components/FormField';
import { richText } from '@kasa/i18n/richText';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT, type PagesMessageId } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import type { NotifyProps } from '../notify';
import { COMPANY } from './legal/company';
import { Button, Hero, Lead, Page, Title } from '../ui';

const Layout = styled.div`
  display: grid;
  gap: 2rem;
  grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
  @media (max-width: 48rem) {
    grid-template-columns: 1fr;
  }
`;

const Panel = styled.div`
  padding: 1.5rem;
  background: var(--kasa-surface);
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  h2 {
    margin: 0 0 0.75rem;
    font-size: 1.25rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
  a {
    color: var(--kasa-fg);
  }
`;

type FieldName = 'name' | 'email' | 'subject' | 'message';
const EMPTY: Record<FieldName, string> = { name: '', email: '', subject: '', message: '' };

/** The first problem with the form, as a toast (its messages) and the field to mark; null when it can be sent. */
function check(
  form: Record<FieldName, string>,
): { field: FieldName; title: PagesMessageId; description: PagesMessageId } | null {
  const missing = (Object.keys(form) as FieldName[]).find((field) => !form[field].trim());
  if (missing) return { field: missing, title: 'contact.missingTitle', description: 'contact.missingText' };
  if (!looksLikeEmail(form.email.trim())) {
    return { field: 'email', title: 'contact.invalidEmailTitle', description: 'contact.invalidEmailText' };
  }
  if (form.message.trim().length < LIMITS.messageMin) {
    return { field: 'message', title: 'contact.tooShortTitle', description: 'contact.tooShortText' };
  }
  return null;
}

/** Route `/contact`: a message to the Kasa team (POST /api/contact), and the mailboxes. */
function ContactPage({ notify }: NotifyProps) {
  const t = usePagesT();
  const [form, setForm] = useState(EMPTY);
  const [invalid, setInvalid] = useState<FieldName | null>(null);
  const [sending, setSending] = useState(false);
  const [sentReference, setSentReference] = useState<string | null>(null);

  const set = (field: FieldName) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    if (invalid === field) setInvalid(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const problem = check(form);
    if (problem) {
      setInvalid(problem.field);
      notify({
        title: t(problem.title),
        description: t(problem.description, { min: LIMITS.messageMin }),
        variant: 'destructive',
      });
      return;
    }
    setSending(true);
    try {
      const answer = await sendContactMessage({
        name: form.name.trim(),
        email: form.email.trim(),
        subject: form.subject.trim(),
        message: form.message.trim(),
      });
      setForm(EMPTY);
      setSentReference(answer.reference);
      // The service's confirmation is English; the page says the same in the person's language.
      notify({
        title: t('contact.sentTitle'),
        description: t('contact.sentText', { name: form.name.trim(), reference: answer.reference }),
      });
    } catch (error) {
      notify({
        title: t('contact.notSentTitle'),
        description: (isApiError(error) && error.serverMessage) || t('common.unexpectedError'),
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Page>
      <Hero aria-labelledby="contact-title">
        <Title id="contact-title">{t('contact.title')}</Title>
        <Lead>{t('contact.lead')}</Lead>
      </Hero>
      <Layout>
        <Panel>
          <form
            onSubmit={(event) => void onSubmit(event)}
            noValidate
            aria-label={t('contact.form')}
            aria-busy={sending}
          >
            <FormField
              label={t('contact.name')}
              autoComplete="name"
              maxLength={LIMITS.name}
              value={form.name}
              onValueChange={set('name')}
              invalid={invalid === 'name'}
              disabled={sending}
            />
            <FormField
              label={t('contact.email')}
              type="email"
              autoComplete="email"
              maxLength={254}
              value={form.email}
              onValueChange={set('email')}
              invalid={invalid === 'email'}
              disabled={sending}
            />
            <FormField
              label={t('contact.subject')}
              maxLength={LIMITS.subject}
              value={form.subject}
              onValueChange={set('subject')}
              invalid={invalid === 'subject'}
              disabled={sending}
            />
            <FormField
              multiline
              label={t('contact.message')}
              maxLength={LIMITS.messageMax}
              hint={t('contact.messageHint', { min: LIMITS.messageMin, max: LIMITS.messageMax })}
              value={form.message}
              onValueChange={set('message')}
              invalid={invalid === 'message'}
              disabled={sending}
            />
            <Button type="submit" variant="primary" disabled={sending}>
              {sending ? t('contact.sending') : t('contact.send')}
            </Button>
          </form>
          {sentReference ? (
            <p role="status" data-testid="contact-confirmation">
              {t('contact.confirmation', { reference: sentReference })}
            </p>
          ) : null}
        </Panel>
        <Panel as="aside" aria-label={t('contact.elsewhere')}>
          <h2>{t('contact.emailUs')}</h2>
          <p>
            {richText((values) => t('contact.general', values), {
              email: <a href={`mailto:${COMPANY.helloEmail}`}>{COMPANY.helloEmail}</a>,
            })}
          </p>
          <p>
            {richText((values) => t('contact.support', values), {
              email: <a href={`mailto:${COMPANY.supportEmail}`}>{COMPANY.supportEmail}</a>,
            })}
          </p>
          <p>{t('contact.answerTime')}</p>
        </Panel>
      </Layout>
    </Page>
  );
}

export default withCatalogue(ContactPage, PAGES_LOADERS);
