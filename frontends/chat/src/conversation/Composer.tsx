import styled from '@emotion/styled';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MAX_MESSAGE_LENGTH } from '../api/chatApi';
import { Button, HiddenLabel, Select } from '../ui/controls';
import { VoiceComposerControls } from '../voice/VoiceComposerControls';
import { isFreeLanguageChoice, LANGUAGE_CHOICES } from './languages';

/** The composer's voice settings and what it does with a transcript. */
export interface ComposerVoice {
  /** The person's plan includes voice. */
  allowed: boolean;
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  /** Sends a transcript as a voice message. */
  onTranscript: (text: string, language: string) => void;
}

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 0.75rem;
  border: 1px solid var(--kasa-border);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
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

  return (
    <Form aria-label="Send a message" onSubmit={onSubmit} data-tour="chat-composer">
      <HiddenLabel htmlFor={fieldId}>Message {personaName}</HiddenLabel>
      <TextArea
        id={fieldId}
        ref={field}
        rows={2}
        value={text}
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder={`Message ${personaName}…`}
        disabled={busy}
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => (hadFocus.current = true)}
      />
      <VoiceComposerControls
        allowed={voice.allowed}
        language={language}
        disabled={busy}
        voiceMode={voice.voiceMode}
        onVoiceModeChange={voice.onVoiceModeChange}
        onTranscript={(spoken, lang) => {
          hadFocus.current = false;
          voice.onTranscript(spoken, lang);
        }}
      />
      <Bar>
        <label>
          <span>Reply language</span>
          <Select
            value={language}
            onChange={(event) => onLanguageChange(event.target.value)}
            data-testid="language-select"
          >
            {LANGUAGE_CHOICES.map((choice) => {
              const locked = !voice.allowed && !isFreeLanguageChoice(choice.tag);
              return (
                <option key={choice.tag} value={choice.tag} disabled={locked}>
                  {choice.label}
                  {choice.tag === 'auto' ? '' : ` (${choice.tag})`}
                  {locked ? ' · Pro' : ''}
                </option>
              );
            })}
          </Select>
        </label>
        <Hint id={hintId}>
          Enter to send, Shift+Enter for a new line ·{' '}
          {language === 'auto' ? 'Language: auto' : `Language: ${languageLabel}`}
        </Hint>
        {busy ? (
          <Button ref={stopButton} type="button" variant="secondary" onClick={onStop} disabled={stopping}>
            {stopping ? 'Stopping…' : 'Stop'}
          </Button>
        ) : (
          <Button type="submit" disabled={text.trim() === ''}>
            Send
          </Button>
        )}
      </Bar>
    </Form>
  );
}
