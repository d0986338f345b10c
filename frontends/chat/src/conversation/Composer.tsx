import styled from '@emotion/styled';
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MAX_MESSAGE_LENGTH } from '../api/chatApi';
import { Button, HiddenLabel, Select, visuallyHidden } from '@kasa/ui';
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
}: {
  personaName: string;
  busy: boolean;
  stopping: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  language: string;
  onLanguageChange: (tag: string) => void;
  voice: ComposerVoice;
}) {
  const t = useT();
  const [text, setText] = useState('');
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
    if (!message || busy) return;
    hadFocus.current = document.activeElement === field.current;
    onSend(message);
    setText('');
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
    <Form aria-label={t('composer.form')} onSubmit={onSubmit} data-tour="chat-composer">
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
          <Button type="submit" disabled={text.trim() === ''}>
            {t('composer.send')}
          </Button>
        )}
      </Bar>
    </Form>
  );
}
