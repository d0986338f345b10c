import styled from '@emotion/styled';
import { isApiError } from '@kasa/api-client';
import type { Persona, SharedConversation } from '@kasa/contracts';
import { RemoteCatalogue, SectionCatalogue } from '@kasa/i18n';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { fetchSharedConversation, shareKeys } from './shareApi';
import { describeFailure } from '../conversation/useConversation';
import { CHAT_ENGLISH, CHAT_LOADERS } from '../i18n/catalogues';
import { SHARE_LOADERS } from '../i18n/share/catalogues';
import { useShareT } from '../i18n/share/useShareT';
import { useT } from '../i18n/useT';
import { PersonaAvatar } from '../personas/PersonaAvatar';
import { Button, InlineError, Muted, VisuallyHidden } from '@kasa/ui';

const Markdown = lazy(() => import('../markdown/Markdown'));

const Page = styled.main`
  width: 100%;
  max-width: 48rem;
  margin: 0 auto;
  padding: 1.5rem 1rem 3rem;
  display: flex;
  flex-direction: column;
  gap: 1rem;
`;

const Header = styled.header`
  display: flex;
  align-items: center;
  gap: 0.75rem;
  h1 {
    margin: 0;
    font-size: 1.375rem;
    overflow-wrap: anywhere;
  }
  p {
    margin: 0.125rem 0 0;
    color: var(--kasa-muted);
  }
`;

const Messages = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
`;

const Bubble = styled.li<{ mine: boolean }>`
  align-self: ${({ mine }) => (mine ? 'flex-end' : 'flex-start')};
  max-width: min(40rem, 92%);
  padding: 0.625rem 0.875rem;
  border-radius: calc(var(--kasa-radius) * 1.5);
  border: 1px solid var(--kasa-border);
  background: ${({ mine }) => (mine ? 'var(--kasa-primary)' : 'var(--kasa-surface)')};
  color: ${({ mine }) => (mine ? 'var(--kasa-primary-fg)' : 'var(--kasa-fg)')};
  overflow-wrap: anywhere;
`;

const PlainText = styled.p`
  margin: 0;
  white-space: pre-wrap;
`;

const Invitation = styled.aside`
  margin-top: 1rem;
  padding: 1rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
  p {
    margin: 0;
  }
  a {
    font-weight: 600;
    color: var(--kasa-link, var(--kasa-primary));
  }
`;

const when = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

function Conversation({ shared }: { shared: SharedConversation }) {
  const t = useShareT();
  const chatT = useT();
  const locale = document.documentElement.lang || 'en';
  const persona: Persona = { ...shared.persona, expertise: '', systemPrompt: '' };
  useEffect(() => {
    const before = document.title;
    document.title = `${shared.title} – Kasa`;
    return () => {
      document.title = before;
    };
  }, [shared.title]);
  return (
    <>
      <Header>
        <PersonaAvatar persona={persona} size="2.5rem" />
        <div>
          <h1>{shared.title}</h1>
          <p>{t('shared.with', { name: shared.persona.name })}</p>
          <p>
            <time dateTime={shared.sharedAt}>{t('shared.asOf', { when: when(shared.sharedAt, locale) })}</time>
          </p>
        </div>
      </Header>
      {shared.truncated ? <Muted>{t('shared.truncated')}</Muted> : null}
      <Messages data-testid="shared-messages">
        {shared.messages.map((message) => {
          const mine = message.role === 'user';
          return (
            <Bubble key={message.id} mine={mine} data-testid={mine ? 'shared-user' : 'shared-assistant'}>
              <VisuallyHidden>
                {mine ? t('shared.author') : chatT('message.theySaid', { name: shared.persona.name })}
              </VisuallyHidden>
              {mine ? (
                <PlainText>{message.content}</PlainText>
              ) : (
                <Suspense fallback={<PlainText>{message.content}</PlainText>}>
                  <Markdown text={message.content} />
                </Suspense>
              )}
            </Bubble>
          );
        })}
      </Messages>
      <Invitation>
        <p>{t('shared.ctaText')}</p>
        <Link to="/chat">{t('shared.cta')}</Link>
      </Invitation>
    </>
  );
}

function SharedConversationView() {
  const t = useShareT();
  const { token = '' } = useParams();
  const shared = useQuery({
    queryKey: shareKeys.shared(token),
    queryFn: () => fetchSharedConversation(token),
    // A link that does not work will not start working by asking again.
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });

  return (
    <Page aria-busy={shared.isPending}>
      {shared.isPending ? <Muted role="status">{t('shared.loading')}</Muted> : null}
      {shared.isError && isApiError(shared.error) && shared.error.status === 404 ? (
        <section data-testid="shared-gone">
          <h1>{t('shared.goneTitle')}</h1>
          <p>{t('shared.gone')}</p>
          <Link to="/">{t('shared.cta')}</Link>
        </section>
      ) : null}
      {shared.isError && !(isApiError(shared.error) && shared.error.status === 404) ? (
        <InlineError role="alert">
          <p>{t('shared.failed', { reason: describeFailure(shared.error) })}</p>
          <Button type="button" compact onClick={() => void shared.refetch()}>
            {t('shared.retry')}
          </Button>
        </InlineError>
      ) : null}
      {shared.data ? <Conversation shared={shared.data} /> : null}
    </Page>
  );
}

/** Route `/share/:token`, for anyone with the link: a conversation someone shared, read-only, no account needed. */
export default function SharedConversationPage() {
  return (
    <RemoteCatalogue english={CHAT_ENGLISH} loaders={CHAT_LOADERS}>
      <SectionCatalogue loaders={SHARE_LOADERS}>
        <SharedConversationView />
      </SectionCatalogue>
    </RemoteCatalogue>
  );
}
