import styled from '@emotion/styled';
import { useId, useState, type FormEvent } from 'react';
import { apiJson, isApiError } from '@kasa/api-client';
import type { NewsletterSubscribeResponse } from '@kasa/contracts';
import { toast } from '../toast/toastStore';
import { Button } from '@kasa/ui';
import { useT } from '../i18n/useT';

const Form = styled.form`
  h2 {
    margin: 0 0 0.25rem;
    color: var(--kasa-fg);
    font-size: 0.9375rem;
  }
  label {
    display: block;
    margin: 0.5rem 0 0.375rem;
  }
`;

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  input {
    flex: 1 1 12rem;
    min-width: 0;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--kasa-muted);
    border-radius: var(--kasa-radius);
    background: var(--kasa-bg);
    color: var(--kasa-fg);
    font: inherit;
  }
`;

/** A practical check of an address's shape; the server validates it properly. */
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254;

/** The footer's newsletter box: POST /api/newsletter, with a toast for the answer. */
export function NewsletterForm() {
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const inputId = useId();
  const t = useT();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    if (!address) {
      toast({ title: t('newsletter.missing'), description: t('newsletter.missingText'), variant: 'destructive' });
      return;
    }
    if (!looksLikeEmail(address)) {
      toast({ title: t('newsletter.invalid'), description: t('newsletter.invalidText'), variant: 'destructive' });
      return;
    }
    setSending(true);
    try {
      const answer = await apiJson<NewsletterSubscribeResponse>('POST', '/api/newsletter', { email: address });
      setEmail('');
      toast({ title: t('newsletter.subscribed'), description: answer.message });
    } catch (error) {
      toast({
        title: t('newsletter.failed'),
        description: (isApiError(error) && error.serverMessage) || t('newsletter.failedText'),
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={t('newsletter.label')} aria-busy={sending}>
      <h2>{t('newsletter.title')}</h2>
      <p>{t('newsletter.text')}</p>
      <label htmlFor={inputId}>{t('newsletter.email')}</label>
      <Controls>
        <input
          id={inputId}
          type="email"
          autoComplete="email"
          placeholder={t('newsletter.placeholder')}
          maxLength={254}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          disabled={sending}
        />
        <Button type="submit" compact disabled={sending}>
          {t('newsletter.subscribe')}
        </Button>
      </Controls>
    </Form>
  );
}
