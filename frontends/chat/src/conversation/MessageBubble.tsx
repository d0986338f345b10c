import styled from '@emotion/styled';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Button, ICON, Mic, VisuallyHidden } from '@kasa/ui';
import { CopyButton } from '@kasa/ui/widgets';
import type { ShownMessage } from './useConversation';
import { useT, type MessageId } from '../i18n/useT';
import { EditButton, MessageEditor, VersionsSection, VersionSwitcher } from './MessageVersions';
import * as versionsApi from '../api/versionsApi';
import { MessageAttachments } from '../attachments/MessageAttachments';

/** The calls behind the versions controls, loaded with them (see `loadVersionsApi`). */
export { versionsApi };

// The markdown renderer is its own chunk: the page shows and streams text before it arrives.
const Markdown = lazy(() => import('../markdown/Markdown'));
// So are the playback controls, which come with the first reply shown.
const ReplyAudio = lazy(() => import(/* webpackChunkName: "voice" */ '../voice/ReplyAudio'));
// Loaded only for people whose plan makes videos (Enterprise): nobody else downloads it.
const MakeVideoAction = lazy(() =>
  import(/* webpackChunkName: "make-video" */ '../video/MakeVideoAction').then((m) => ({ default: m.MakeVideoAction })),
);

const Row = styled.li<{ mine: boolean }>`
  display: flex;
  flex-direction: column;
  align-items: ${({ mine }) => (mine ? 'flex-end' : 'flex-start')};
  gap: 0.25rem;
`;

const Bubble = styled.div<{ mine: boolean }>`
  max-width: min(100%, 46rem);
  padding: 0.625rem 0.875rem;
  border-radius: calc(var(--kasa-radius) * 1.5);
  border: 1px solid ${({ mine }) => (mine ? 'transparent' : 'var(--kasa-border)')};
  background: ${({ mine }) => (mine ? 'var(--kasa-primary)' : 'var(--kasa-surface)')};
  color: ${({ mine }) => (mine ? 'var(--kasa-primary-fg)' : 'var(--kasa-fg)')};
`;

const PlainText = styled.div`
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Footer = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.25rem 0.5rem;
  color: var(--kasa-muted);
  font-size: 0.8125rem;
`;

const Cursor = styled.span`
  display: inline-block;
  width: 0.5em;
  height: 1em;
  margin-left: 0.125rem;
  vertical-align: text-bottom;
  background: currentColor;
  opacity: 0.6;
`;

const VoiceBadge = styled.span`
  color: var(--kasa-muted);
  font-size: 0.8125rem;
`;

const STATUS_LABELS: Partial<Record<ShownMessage['status'], MessageId>> = {
  stopped: 'message.stopped',
  failed: 'message.failed',
};

/**
 * One message: the user's as plain text (marked when it was spoken), with Edit; a reply as markdown, with Copy,
 * Regenerate, who answered and, where the plan has voice, its playback controls; and, for a message with more than
 * one version, the ‹ 1/3 › arrows that show the others.
 */
export function MessageBubble({
  message,
  authorName,
  voiceLanguage,
  videoAllowed = false,
  sources,
  onRegenerate,
  onEdit,
  onSelectVersion,
}: {
  message: ShownMessage;
  /** Who wrote a reply (the persona's name), for screen readers. */
  authorName: string;
  /** The language to read replies aloud in; without it (a plan without voice) there are no playback controls. */
  voiceLanguage?: string | undefined;
  /** The plan makes videos (Enterprise): a finished reply offers "Make a video" of its text. */
  videoAllowed?: boolean;
  /** The names of the conversation's files: a reply's citations of them (`[report.pdf, p. 2]`) are marked. */
  sources?: readonly string[] | undefined;
  /** Shown on the last reply when nothing is being written. */
  onRegenerate?: (() => void) | undefined;
  /** Sends new text for one of my stored messages, as a new version of it (absent while a reply is written). */
  onEdit?: ((content: string) => void) | undefined;
  /** Shows another version (absent while a reply is written: the arrows are then disabled). */
  onSelectVersion?: ((id: string) => Promise<void>) | undefined;
}) {
  const t = useT();
  const contentId = useId();
  const mine = message.role === 'user';
  const streaming = message.status === 'streaming';
  const statusLabel = STATUS_LABELS[message.status];
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const focusEditButton = useRef(false);
  const versions =
    message.version && message.version.count > 1 ? (
      <VersionSwitcher version={message.version} onSelect={onSelectVersion} />
    ) : null;

  // A reply that starts being written meanwhile (another tab, voice) closes the editor.
  const canEdit = Boolean(onEdit);
  useEffect(() => {
    if (!canEdit) setEditing(false);
  }, [canEdit]);

  // Leaving the editor with Cancel or Escape gives focus back to Edit.
  useEffect(() => {
    if (editing || !focusEditButton.current) return;
    focusEditButton.current = false;
    editButton.current?.focus();
  }, [editing]);

  return (
    <Row
      mine={mine}
      data-testid={mine ? 'message-user' : 'message-assistant'}
      data-status={message.status}
      data-type={message.type}
    >
      <VisuallyHidden>{mine ? t('message.youSaid') : t('message.theySaid', { name: authorName })}</VisuallyHidden>
      {message.attachments?.length ? <MessageAttachments attachments={message.attachments} /> : null}
      {editing && onEdit ? (
        <VersionsSection>
          <MessageEditor
            initial={message.content}
            onSave={(content) => {
              setEditing(false);
              onEdit(content);
            }}
            onCancel={() => {
              focusEditButton.current = true;
              setEditing(false);
            }}
          />
        </VersionsSection>
      ) : (
        <Bubble
          mine={mine}
          id={contentId}
          // What was written takes its own direction: an English message in Arabic keeps its punctuation at its end.
          dir="auto"
          // The reply being written is announced once it is complete, not token by token.
          aria-live={message.live ? 'polite' : undefined}
          aria-busy={message.live ? streaming : undefined}
          data-testid="message-content"
        >
          {mine ? (
            <PlainText>{message.content}</PlainText>
          ) : (
            <Suspense fallback={<PlainText>{message.content}</PlainText>}>
              {message.content ? <Markdown text={message.content} sources={sources} /> : null}
              {streaming && message.queuePosition && !message.content ? (
                // Waiting for the local model: its place in line instead of the cursor, until the first text.
                <span data-testid="message-queued">{t('message.queued', { position: message.queuePosition })}</span>
              ) : streaming ? (
                <>
                  {message.content ? null : (
                    <VisuallyHidden>{t('message.writing', { name: authorName })}</VisuallyHidden>
                  )}
                  <Cursor aria-hidden="true" />
                </>
              ) : null}
            </Suspense>
          )}
        </Bubble>
      )}
      {mine && message.type === 'voice' ? (
        <VoiceBadge data-testid="message-voice">
          <Mic {...ICON} size={14} style={{ verticalAlign: '-0.15em', marginInlineEnd: '0.25rem' }} />
          {t('message.voice')}
        </VoiceBadge>
      ) : null}
      {mine && !editing && (versions || (onEdit && message.id)) ? (
        <Footer>
          <VersionsSection>
            {versions}
            {onEdit && message.id ? <EditButton ref={editButton} onClick={() => setEditing(true)} /> : null}
          </VersionsSection>
        </Footer>
      ) : null}
      {mine || streaming ? null : (
        <Footer>
          {versions ? <VersionsSection>{versions}</VersionsSection> : null}
          {statusLabel ? <span data-testid="message-status">{t(statusLabel)}</span> : null}
          {message.provider ? (
            <span
              data-testid="message-provider"
              title={message.model ? t('message.model', { model: message.model }) : undefined}
            >
              {t('message.via', { provider: message.provider })}
            </span>
          ) : null}
          {message.content ? <CopyButton text={message.content} describedBy={contentId} /> : null}
          {voiceLanguage && message.id && message.content ? (
            <Suspense fallback={null}>
              <ReplyAudio id={message.id} text={message.content} language={voiceLanguage} />
            </Suspense>
          ) : null}
          {onRegenerate ? (
            <Button type="button" variant="ghost" compact onClick={onRegenerate}>
              {t('message.regenerate')}
            </Button>
          ) : null}
          {videoAllowed && message.content && message.status === 'complete' ? (
            <Suspense fallback={null}>
              <MakeVideoAction text={message.content} />
            </Suspense>
          ) : null}
        </Footer>
      )}
    </Row>
  );
}
