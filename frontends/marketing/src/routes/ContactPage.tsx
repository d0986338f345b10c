import styled from '@emotion/styled';
import { useState, type FormEvent } from 'react';
import { isApiError } from '@kasa/api-client';
import { CONTACT_FIELD_LIMITS as LIMITS, looksLikeEmail, sendContactMessage } from '../api/outreach';
import { FormField } from '../components/FormField';
import type { NotifyProps } from '../notify';
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

/** The first problem with the form, as a toast and the field to mark; null when it can be sent. */
function check(form: Record<FieldName, string>): { field: FieldName; title: string; description: string } | null {
  const missing = (Object.keys(form) as FieldName[]).find((field) => !form[field].trim());
  if (missing) return { field: missing, title: 'Missing Information', description: 'Please fill in all fields' };
  if (!looksLikeEmail(form.email.trim())) {
    return { field: 'email', title: 'Invalid Email', description: 'Please enter a valid email address' };
  }
  if (form.message.trim().length < LIMITS.messageMin) {
    return {
      field: 'message',
      title: 'Message Too Short',
      description: `Please write at least ${LIMITS.messageMin} characters`,
    };
  }
  return null;
}

/** Route `/contact`: a message to the Kasa team (POST /api/contact), and the mailboxes. */
export default function ContactPage({ notify }: NotifyProps) {
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
      notify({ title: problem.title, description: problem.description, variant: 'destructive' });
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
      notify({ title: 'Message Sent', description: `${answer.message} Reference: ${answer.reference}` });
    } catch (error) {
      notify({
        title: 'Message Not Sent',
        description: (isApiError(error) && error.serverMessage) || 'An unexpected error occurred',
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Page>
      <Hero aria-labelledby="contact-title">
        <Title id="contact-title">Contact Us</Title>
        <Lead>Questions about Kasa, a plan or the API? Write to us and we will reply by email.</Lead>
      </Hero>
      <Layout>
        <Panel>
          <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Contact" aria-busy={sending}>
            <FormField
              label="Name"
              autoComplete="name"
              maxLength={LIMITS.name}
              value={form.name}
              onValueChange={set('name')}
              invalid={invalid === 'name'}
              disabled={sending}
            />
            <FormField
              label="Email"
              type="email"
              autoComplete="email"
              maxLength={254}
              value={form.email}
              onValueChange={set('email')}
              invalid={invalid === 'email'}
              disabled={sending}
            />
            <FormField
              label="Subject"
              maxLength={LIMITS.subject}
              value={form.subject}
              onValueChange={set('subject')}
              invalid={invalid === 'subject'}
              disabled={sending}
            />
            <FormField
              multiline
              label="Message"
              maxLength={LIMITS.messageMax}
              hint={`${LIMITS.messageMin} to ${LIMITS.messageMax.toLocaleString('en-US')} characters`}
              value={form.message}
              onValueChange={set('message')}
              invalid={invalid === 'message'}
              disabled={sending}
            />
            <Button type="submit" variant="primary" disabled={sending}>
              {sending ? 'Sending...' : 'Send Message'}
            </Button>
          </form>
          {sentReference ? (
            <p role="status" data-testid="contact-confirmation">
              {`Thank you! Your message reference is ${sentReference}.`}
            </p>
          ) : null}
        </Panel>
        <Panel as="aside" aria-label="Other ways to reach us">
          <h2>Email us</h2>
          <p>
            General questions: <a href="mailto:hello@kasa.example">hello@kasa.example</a>
          </p>
          <p>
            Support: <a href="mailto:support@kasa.example">support@kasa.example</a>
          </p>
          <p>We answer within two business days.</p>
        </Panel>
      </Layout>
    </Page>
  );
}
