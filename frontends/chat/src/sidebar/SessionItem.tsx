import styled from '@emotion/styled';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Session } from '@kasa/contracts';
import { MAX_TITLE_LENGTH } from '../api/chatApi';
import { useDeleteSession, useRenameSession } from '../api/chatQueries';
import { describeFailure } from '../conversation/useConversation';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Button, HiddenLabel, TextInput } from '../ui/controls';

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
`;

const TitleLink = styled(Link)`
  flex: 1;
  min-width: 0;
  padding: 0.375rem 0.5rem;
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  text-decoration: none;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  &[aria-current='page'] {
    font-weight: 700;
  }
  &:hover {
    text-decoration: underline;
  }
`;

const IconButton = styled(Button)`
  min-height: 2rem;
  min-width: 2rem;
  padding: 0 0.375rem;
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

/** One session in the sidebar: opens it; renames it in place; deletes it after a confirmation. */
export function SessionItem({
  session,
  active,
  onDeleted,
}: {
  session: Session;
  active: boolean;
  onDeleted: (session: Session) => void;
}) {
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
        <RenameForm aria-label={`Rename “${session.title}”`} onSubmit={submitRename}>
          <HiddenLabel htmlFor={`rename-${session.id}`}>New title</HiddenLabel>
          <TextInput
            id={`rename-${session.id}`}
            value={title}
            maxLength={MAX_TITLE_LENGTH}
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                setTitle(session.title);
                setRenaming(false);
              }
            }}
          />
          <Button type="submit" compact disabled={rename.isPending || title.trim() === ''}>
            Save
          </Button>
          <Button type="button" variant="ghost" compact onClick={() => setRenaming(false)}>
            Cancel
          </Button>
        </RenameForm>
      ) : (
        <Line>
          <TitleLink to={`/chat/${session.id}`} aria-current={active ? 'page' : undefined} title={session.title}>
            {session.title}
          </TitleLink>
          <IconButton
            type="button"
            variant="ghost"
            compact
            aria-label={`Rename “${session.title}”`}
            title="Rename"
            onClick={() => {
              setTitle(session.title);
              rename.reset();
              setRenaming(true);
            }}
          >
            <span aria-hidden="true">✎</span>
          </IconButton>
          <IconButton
            type="button"
            variant="ghost"
            compact
            aria-label={`Delete “${session.title}”`}
            title="Delete"
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            <span aria-hidden="true">🗑</span>
          </IconButton>
        </Line>
      )}
      {rename.isError ? <ErrorText role="alert">Could not rename: {describeFailure(rename.error)}</ErrorText> : null}
      {remove.isError ? <ErrorText role="alert">Could not delete: {describeFailure(remove.error)}</ErrorText> : null}
      {confirming ? (
        <ConfirmDialog
          title="Delete this conversation?"
          confirmLabel="Delete"
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
          <p>“{session.title}” and all its messages will be deleted. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </Item>
  );
}
