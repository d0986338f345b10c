import styled from '@emotion/styled';
import { lazy, Suspense, useState, type FormEvent, type SyntheticEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Session } from '@kasa/contracts';
import { MAX_TITLE_LENGTH } from '../api/chatApi';
import { useDeleteSession, useRenameSession } from '../api/chatQueries';
import { describeFailure } from '../conversation/useConversation';
import { Button, HiddenLabel, ICON, Pencil, TextInput, TOUCH_MEDIA, TOUCH_TARGET, Trash2 } from '@kasa/ui';
import { useT } from '../i18n/useT';
import { useChatPaths } from '../chatPaths';
import { fullWhen, itemWhen, type GroupKind } from './dateGroups';

/** Shown only when a deletion is asked for, so its code loads then rather than with the chat. */
const ConfirmDialog = lazy(() => import('@kasa/ui/widgets').then((module) => ({ default: module.ConfirmDialog })));

const Item = styled.li`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  border-radius: var(--kasa-radius);
  &:has(a[aria-current='page']) {
    background: var(--kasa-surface-muted);
  }
`;

const Line = styled.div`
  display: flex;
  align-items: center;
  gap: 0.125rem;
  /* On a phone the title has the row's whole width; Rename and Delete sit beside its time, on the line below it. */
  @media (max-width: 48rem) {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto auto;
    align-items: end;
    > a {
      grid-area: 1 / 1 / 2 / 4;
    }
    > button {
      grid-row: 1;
      position: relative;
      z-index: 1;
    }
    > button:nth-of-type(1) {
      grid-column: 2;
    }
    > button:nth-of-type(2) {
      grid-column: 3;
    }
  }
`;

const TitleLink = styled(Link)`
  flex: 1;
  min-width: 0;
  display: flex;
  align-items: baseline;
  gap: 0.5rem;
  padding: 0.375rem 0.5rem;
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  text-decoration: none;
  &[aria-current='page'] {
    font-weight: 700;
  }
  &:hover > span {
    text-decoration: underline;
  }
  /* A title takes its own direction (dir="auto"), so one in English is cut at its end in Arabic too, and sits where
     the page's text does. */
  > span {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    text-align: match-parent;
  }
  time {
    flex: none;
    color: var(--kasa-muted);
    font-size: 0.75rem;
    font-weight: 400;
  }
  /* On a phone there is no hover to read a title cut short: it takes two lines, its time the line below. */
  @media (max-width: 48rem) {
    flex-direction: column;
    align-items: stretch;
    gap: 0;
    padding-bottom: 0;
    > span {
      display: -webkit-box;
      -webkit-box-orient: vertical;
      -webkit-line-clamp: 2;
      line-clamp: 2;
      white-space: normal;
      overflow-wrap: anywhere;
    }
    time {
      display: flex;
      align-self: flex-start;
      align-items: center;
      min-height: 2.75rem;
    }
  }
`;

const IconButton = styled(Button)`
  min-height: 2rem;
  min-width: 2rem;
  padding: 0 0.375rem;
  ${TOUCH_MEDIA} {
    min-height: ${TOUCH_TARGET};
    min-width: ${TOUCH_TARGET};
  }
`;

const RenameForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 0.375rem;
  padding: 0.25rem;
`;

const ErrorText = styled.p`
  margin: 0;
  padding: 0 0.5rem;
  color: var(--kasa-danger);
  font-size: 0.8125rem;
`;

/**
 * The full title as the link's hover text, only when the list cuts it short (the link's text, which screen readers
 * read, always holds all of it): at the end of its line, or of its second line on a phone.
 */
function showTitleIfCut(event: SyntheticEvent<HTMLAnchorElement>) {
  const link = event.currentTarget;
  const text = link.firstElementChild as HTMLElement | null;
  if (!text) return;
  if (text.scrollWidth > text.clientWidth || text.scrollHeight > text.clientHeight + 1)
    link.title = text.textContent ?? '';
  else link.removeAttribute('title');
}

/** One session in the sidebar: opens it; renames it in place; deletes it after a confirmation. */
export function SessionItem({
  session,
  group,
  locale,
  active,
  onDeleted,
}: {
  session: Session;
  /** Its date group: today's and yesterday's show their time, older ones their date. */
  group: GroupKind;
  /** The interface language, for the date. */
  locale: string;
  active: boolean;
  onDeleted: (session: Session) => void;
}) {
  const t = useT();
  const paths = useChatPaths();
  const created = new Date(session.createdAt);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [confirming, setConfirming] = useState(false);
  const rename = useRenameSession();
  const remove = useDeleteSession();

  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    const next = title.trim();
    if (!next || next === session.title) {
      setRenaming(false);
      return;
    }
    rename.mutate({ id: session.id, title: next }, { onSuccess: () => setRenaming(false) });
  };

  return (
    <Item data-testid="session-item">
      {renaming ? (
        <RenameForm aria-label={t('session.renameNamed', { title: session.title })} onSubmit={submitRename}>
          <HiddenLabel htmlFor={`rename-${session.id}`}>{t('session.newTitle')}</HiddenLabel>
          <TextInput
            id={`rename-${session.id}`}
            value={title}
            maxLength={MAX_TITLE_LENGTH}
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                // Escape cancels the rename only (on a phone it would otherwise also close the drawer).
                event.preventDefault();
                setTitle(session.title);
                setRenaming(false);
              }
            }}
          />
          <Button type="submit" compact disabled={rename.isPending || title.trim() === ''}>
            {t('common.save')}
          </Button>
          <Button type="button" variant="ghost" compact onClick={() => setRenaming(false)}>
            {t('common.cancel')}
          </Button>
        </RenameForm>
      ) : (
        <Line>
          <TitleLink
            to={paths.session(session.id)}
            aria-current={active ? 'page' : undefined}
            onPointerEnter={showTitleIfCut}
            onFocus={showTitleIfCut}
          >
            <span dir="auto">{session.title}</span>
            <time dateTime={session.createdAt} title={fullWhen(created, locale)}>
              {itemWhen(created, group, locale)}
            </time>
          </TitleLink>
          <IconButton
            type="button"
            variant="ghost"
            compact
            aria-label={t('session.renameNamed', { title: session.title })}
            title={t('session.rename')}
            onClick={() => {
              setTitle(session.title);
              rename.reset();
              setRenaming(true);
            }}
          >
            <Pencil {...ICON} />
          </IconButton>
          <IconButton
            type="button"
            variant="ghost"
            compact
            aria-label={t('session.deleteNamed', { title: session.title })}
            title={t('session.delete')}
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            <Trash2 {...ICON} />
          </IconButton>
        </Line>
      )}
      {rename.isError ? (
        <ErrorText role="alert">{t('session.renameFailed', { reason: describeFailure(rename.error) })}</ErrorText>
      ) : null}
      {remove.isError ? (
        <ErrorText role="alert">{t('session.deleteFailed', { reason: describeFailure(remove.error) })}</ErrorText>
      ) : null}
      <Suspense fallback={null}>
        {confirming ? (
          <ConfirmDialog
            title={t('session.confirmDelete')}
            confirmLabel={t('session.delete')}
            busy={remove.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={() =>
              remove.mutate(session.id, {
                onSuccess: () => {
                  setConfirming(false);
                  onDeleted(session);
                },
                onError: () => setConfirming(false),
              })
            }
          >
            <p>{t('session.confirmDeleteText', { title: session.title })}</p>
          </ConfirmDialog>
        ) : null}
      </Suspense>
    </Item>
  );
}
