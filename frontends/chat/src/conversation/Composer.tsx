import styled from '@emotion/styled';
import type { MessageAttachment } from '@kasa/contracts';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { Link } from 'react-router-dom';
import { MAX_MESSAGE_LENGTH } from '../api/chatApi';
import { Button, HiddenLabel, ICON, Paperclip, Select, TOUCH_MEDIA, TOUCH_TARGET, visuallyHidden } from '@kasa/ui';
import { ACCEPTED_FILES } from '../attachments/attachmentApi';
import { AttachmentsUpgradeText } from '../attachments/AttachmentsUpgradeText';
import { usePendingAttachments, type RefusalReason } from '../attachments/usePendingAttachments';
import { VoiceUpgradeNotice } from '../voice/VoiceUpgradeNotice';
import { preloadConversationParts } from './conversationParts';
import { isFreeLanguageChoice, LANGUAGE_CHOICES } from './languages';
import { useT } from '../i18n/useT';

/** The composer's voice settings and what it does with a transcript. */
export interface ComposerVoice {
  /** The person's plan includes voice. */
  allowed: boolean;
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  /** Sends a transcript as a voice message. */
  onTranscript: (text: string, language: string) => void;
  /** The person spoke over the reply (hands-free voice): stop writing it. */
  onBargeIn: () => void;
}

/** The microphone, audio file and voice mode controls load only for a plan with voice. */
const VoiceComposerControls = lazy(() =>
  import('../voice/VoiceComposerControls').then((module) => ({ default: module.VoiceComposerControls })),
);

/** The files of the message being written, shown once there are some. */
const PendingAttachmentList = lazy(() =>
  import('../attachments/PendingAttachmentList').then((module) => ({ default: module.PendingAttachmentList })),
);

/** Holds the voice row's height while its controls load, so the composer does not jump. */
const VoiceRowPlaceholder = styled.div`
  min-height: 2rem;
`;

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 0.75rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
  &[data-dragging='true'] {
    outline: 2px dashed var(--kasa-accent);
    outline-offset: 2px;
  }
  /* On a phone the composer is the bottom of the screen: compact, clear of the home indicator, 44 px controls. */
  @media (max-width: 48rem) {
    flex: none;
    gap: 0.375rem;
    padding: 0.5rem 0.5rem calc(0.5rem + env(safe-area-inset-bottom));
    select,
    button,
    label:has(> svg) {
      min-height: 2.75rem;
    }
  }
`;

const TextArea = styled.textarea`
  width: 100%;
  min-height: 2.75rem;
  max-height: 12rem;
  padding: 0.5rem 0.625rem;
  border: 1px solid var(--kasa-muted);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
  line-height: 1.4;
  resize: vertical;
  @media (max-width: 48rem) {
    /* Two lines at most, so the conversation keeps the room above; it scrolls beyond that. */
    max-height: 6rem;
    resize: none;
  }
  &:disabled {
    opacity: 0.7;
  }
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
  font-size: 0.875rem;
  color: var(--kasa-muted);
  label {
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
  }
  /* On a phone the selector and Send share one row; the selector's label is still its name for screen readers. */
  @media (max-width: 48rem) {
    flex-wrap: nowrap;
    label {
      position: relative;
      min-width: 0;
    }
    label > span {
      ${visuallyHidden}
    }
    select {
      min-width: 0;
      max-width: 100%;
    }
  }
`;

const AttachButton = styled.label`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 2.25rem;
  min-height: 2.25rem;
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  cursor: pointer;
  &:hover {
    background: var(--kasa-surface-muted);
  }
  &:has(input:focus-visible) {
    outline: 3px solid var(--kasa-focus);
    outline-offset: 2px;
  }
  &[aria-disabled='true'] {
    opacity: 0.5;
    cursor: not-allowed;
  }
  input {
    ${visuallyHidden}
  }
  ${TOUCH_MEDIA} {
    min-width: ${TOUCH_TARGET};
    min-height: ${TOUCH_TARGET};
  }
`;

const UpgradeNote = styled.p`
  margin: 0;
  font-size: 0.875rem;
  color: var(--kasa-fg);
  a {
    color: inherit;
    font-weight: 600;
    text-decoration: underline;
  }
`;

const Hint = styled.span`
  @media (max-width: 48rem) {
    display: none;
  }
`;

/**
 * Writes and sends a message: Enter sends, Shift+Enter adds a line. While a reply is being written the field is
 * disabled and Send becomes Stop; focus moves to Stop and back to the field afterwards. The language selector
 * says which language replies use (`auto`: the one the message is written in). The voice row sends speech (push to
 * talk, or an audio file) as voice messages and turns voice mode on and off.
 */
export function Composer({
  personaName,
  busy,
  onSend,
  onStop,
  stopping,
  language,
  onLanguageChange,
  voice,
  attachmentsAllowed,
}: {
  personaName: string;
  busy: boolean;
  stopping: boolean;
  /** Sends the text with the files uploaded for it. */
  onSend: (text: string, attachments: MessageAttachment[]) => void;
  onStop: () => void;
  language: string;
  onLanguageChange: (tag: string) => void;
  voice: ComposerVoice;
  /** The person's plan includes images and documents (Pro and up); others are told what Pro adds. */
  attachmentsAllowed: boolean;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const refusal = useCallback(
    (reason: RefusalReason) =>
      t(
        reason === 'tooMany'
          ? 'attachments.tooMany'
          : reason === 'imageTooLarge'
            ? 'attachments.imageTooLarge'
            : 'attachments.documentTooLarge',
      ),
    [t],
  );
  const pending = usePendingAttachments(refusal);
  const [upgradeShown, setUpgradeShown] = useState(false);
  const [dragging, setDragging] = useState(false);
  const upgradeId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  const fieldId = useId();
  const hintId = useId();

  // Keyboard users keep their place: Stop gets focus while the reply is written, the field when it is done.
  useEffect(() => {
    if (busy && hadFocus.current) stopButton.current?.focus();
    if (!busy && hadFocus.current) field.current?.focus();
  }, [busy]);

  const submit = () => {
    const message = text.trim();
    if (!message || busy || pending.uploading) return;
    hadFocus.current = document.activeElement === field.current;
    onSend(message, pending.take());
    setText('');
  };

  /** Files picked, pasted or dropped: uploaded on a plan with attachments, else the plan note. */
  const addFiles = (files: File[]) => {
    if (files.length === 0) return;
    if (!attachmentsAllowed) {
      setUpgradeShown(true);
      return;
    }
    pending.add(files);
    field.current?.focus();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length === 0) return; // text: pasted as usual
    event.preventDefault();
    addFiles(files);
  };

  const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  const onDragOver = (event: DragEvent<HTMLFormElement>) => {
    if (!carriesFiles(event) || busy) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    setDragging(false);
    if (!carriesFiles(event) || busy) return;
    event.preventDefault();
    addFiles(Array.from(event.dataTransfer.files));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Not while an input method is composing a character (Enter then confirms the character).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const languageLabel = LANGUAGE_CHOICES.find((choice) => choice.tag === language)?.label ?? language;
  const choiceLabel = (tag: string, label: string) => (tag === 'auto' ? t('composer.autoDetect') : label);

  return (
    <Form
      aria-label={t('composer.form')}
      onSubmit={onSubmit}
      data-tour="chat-composer"
      data-dragging={dragging}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {pending.items.length > 0 ? (
        <Suspense fallback={null}>
          <PendingAttachmentList items={pending.items} onRemove={pending.remove} />
        </Suspense>
      ) : null}
      {upgradeShown && !attachmentsAllowed ? (
        <UpgradeNote id={upgradeId} role="status" data-testid="attachments-upgrade">
          <AttachmentsUpgradeText /> <Link to="/pricing">{t('voice.seePlans')}</Link>
        </UpgradeNote>
      ) : null}
      <HiddenLabel htmlFor={fieldId}>{t('composer.label', { name: personaName })}</HiddenLabel>
      <TextArea
        id={fieldId}
        ref={field}
        rows={2}
        value={text}
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder={t('composer.placeholder', { name: personaName })}
        disabled={busy}
        aria-describedby={hintId}
        onChange={(event) => {
          setText(event.target.value);
          preloadConversationParts(); // what a sent message needs, while it is being written
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onFocus={() => (hadFocus.current = true)}
      />
      {voice.allowed ? (
        <Suspense fallback={<VoiceRowPlaceholder />}>
          <VoiceComposerControls
            allowed
            language={language}
            disabled={busy}
            voiceMode={voice.voiceMode}
            onVoiceModeChange={voice.onVoiceModeChange}
            onBargeIn={voice.onBargeIn}
            onTranscript={(spoken, lang) => {
              hadFocus.current = false;
              voice.onTranscript(spoken, lang);
            }}
          />
        </Suspense>
      ) : (
        <VoiceUpgradeNotice />
      )}
      <Bar>
        {attachmentsAllowed ? (
          <AttachButton title={t('attachments.attach')} aria-disabled={busy}>
            <Paperclip {...ICON} size={18} />
            <input
              type="file"
              multiple
              accept={ACCEPTED_FILES}
              disabled={busy}
              aria-label={t('attachments.attach')}
              data-testid="attach-input"
              onChange={(event) => {
                addFiles(Array.from(event.target.files ?? []));
                event.target.value = ''; // the same file can be picked again
              }}
            />
          </AttachButton>
        ) : (
          <Button
            type="button"
            variant="ghost"
            compact
            aria-label={t('attachments.attach')}
            title={t('attachments.attach')}
            aria-expanded={upgradeShown}
            aria-controls={upgradeShown ? upgradeId : undefined}
            onClick={() => setUpgradeShown((shown) => !shown)}
            data-testid="attach-locked"
          >
            <Paperclip {...ICON} size={18} />
          </Button>
        )}
        <label>
          <span>{t('composer.replyLanguage')}</span>
          <Select
            value={language}
            onChange={(event) => onLanguageChange(event.target.value)}
            data-testid="language-select"
          >
            {LANGUAGE_CHOICES.map((choice) => {
              const locked = !voice.allowed && !isFreeLanguageChoice(choice.tag);
              return (
                <option key={choice.tag} value={choice.tag} disabled={locked}>
                  {choice.tag === 'auto'
                    ? choiceLabel(choice.tag, choice.label)
                    : t(locked ? 'composer.choiceLocked' : 'composer.choice', { name: choice.label, tag: choice.tag })}
                </option>
              );
            })}
          </Select>
        </label>
        <Hint id={hintId}>
          {language === 'auto' ? t('composer.hintAuto') : t('composer.hint', { language: languageLabel })}
        </Hint>
        {busy ? (
          <Button ref={stopButton} type="button" variant="secondary" onClick={onStop} disabled={stopping}>
            {stopping ? t('composer.stopping') : t('composer.stop')}
          </Button>
        ) : (
          <Button
            type="submit"
            disabled={text.trim() === '' || pending.uploading}
            title={pending.uploading ? t('attachments.waitForUploads') : undefined}
          >
            {t('composer.send')}
          </Button>
        )}
      </Bar>
    </Form>
  );
}
