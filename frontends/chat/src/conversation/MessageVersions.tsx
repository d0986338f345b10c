import styled from '@emotion/styled';
import { SectionCatalogue } from '@kasa/i18n';
import type { MessageVersion } from '@kasa/contracts';
import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { MAX_MESSAGE_LENGTH } from '../api/chatApi';
import { useT } from '../i18n/useT';
import { VERSIONS_LOADERS } from '../i18n/versions/catalogues';
import { useVersionsT } from '../i18n/versions/useVersionsT';
import { ArrowLeft, Button, HiddenLabel, ICON, Pencil } from '@kasa/ui';
import { describeFailure } from './useConversation';

/** The messages of versions (their own catalogue, loaded with the message bubbles) around `children`. */
export function VersionsSection({ children }: { children: ReactNode }) {
  return <SectionCatalogue loaders={VERSIONS_LOADERS}>{children}</SectionCatalogue>;
}

const Switcher = styled.div`
  display: inline-flex;
  align-items: center;
  gap: 0.125rem;
  font-variant-numeric: tabular-nums;
  /* One arrow icon for both (the icon set shared by the frontends has no right arrow): "next" is it mirrored, and
     right to left, where reading runs the other way, the two swap. */
  [data-arrow='next'] svg {
    transform: scaleX(-1);
  }
  [dir='rtl'] & [data-arrow='previous'] svg {
    transform: scaleX(-1);
  }
  [dir='rtl'] & [data-arrow='next'] svg {
    transform: none;
  }
`;

const ArrowButton = styled(Button)`
  min-width: 2rem;
  padding: 0.125rem 0.25rem;
  @media (max-width: 48rem) {
    min-width: 2.75rem;
    min-height: 2.75rem;
  }
`;

const SwitchError = styled.span`
  color: var(--kasa-danger);
  margin-inline-start: 0.5rem;
`;

/**
 * The version a switch was asked from: the message's new version is another element (another key), so focus is given
 * back to the same arrow in it once it appears.
 */
let focusAfterSwitch: { group: string; arrow: 'previous' | 'next' } | null = null;

/**
 * ‹ 2/3 ›: which version of a message is shown, and arrows to show the one before or after it (the conversation then
 * continues along that version's branch). Inside a VersionsSection.
 */
export function VersionSwitcher({
  version,
  onSelect,
}: {
  version: MessageVersion;
  /** Shows the version with this id; absent while a reply is being written. */
  onSelect?: ((id: string) => Promise<void>) | undefined;
}) {
  const t = useVersionsT();
  const [failure, setFailure] = useState<string | null>(null);
  const pending = useRef(false);
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const group = version.siblingIds.join(',');
  const position = version.index + 1;

  useEffect(() => {
    if (focusAfterSwitch?.group !== group) return;
    const wanted = focusAfterSwitch.arrow === 'previous' ? previous.current : next.current;
    focusAfterSwitch = null;
    (wanted && !wanted.disabled ? wanted : wanted === previous.current ? next.current : previous.current)?.focus();
  }, [group]);

  const show = async (arrow: 'previous' | 'next') => {
    const id = version.siblingIds[version.index + (arrow === 'previous' ? -1 : 1)];
    if (!onSelect || !id || pending.current) return;
    pending.current = true;
    setFailure(null);
    focusAfterSwitch = { group, arrow };
    try {
      await onSelect(id);
    } catch (error) {
      focusAfterSwitch = null;
      setFailure(describeFailure(error));
    } finally {
      pending.current = false;
    }
  };

  return (
    <Switcher
      role="group"
      aria-label={t('versions.position', { index: position, count: version.count })}
      data-testid="message-versions"
    >
      <ArrowButton
        ref={previous}
        type="button"
        variant="ghost"
        compact
        aria-label={t('versions.previous')}
        data-arrow="previous"
        disabled={!onSelect || version.index === 0}
        onClick={() => void show('previous')}
      >
        <ArrowLeft {...ICON} />
      </ArrowButton>
      <span aria-hidden="true" data-testid="version-counter">
        {t('versions.counter', { index: position, count: version.count })}
      </span>
      <ArrowButton
        ref={next}
        type="button"
        variant="ghost"
        compact
        aria-label={t('versions.next')}
        data-arrow="next"
        disabled={!onSelect || position >= version.count}
        onClick={() => void show('next')}
      >
        <ArrowLeft {...ICON} />
      </ArrowButton>
      {failure ? <SwitchError role="alert">{t('versions.selectFailed', { reason: failure })}</SwitchError> : null}
    </Switcher>
  );
}

/** Edit: opens the inline editor of one of my messages. Inside a VersionsSection. */
export const EditButton = forwardRef<HTMLButtonElement, { onClick: () => void }>(function EditButton({ onClick }, ref) {
  const t = useVersionsT();
  return (
    <Button ref={ref} type="button" variant="ghost" compact onClick={onClick} data-testid="edit-message">
      <Pencil {...ICON} />
      {t('versions.edit')}
    </Button>
  );
});

const EditForm = styled.form`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  width: min(100%, 46rem);
  padding: 0.5rem;
  border: 1px solid var(--kasa-primary);
  border-radius: calc(var(--kasa-radius) * 1.5);
  background: var(--kasa-surface);
`;

const EditArea = styled.textarea`
  width: 100%;
  min-height: 4.5rem;
  max-height: 16rem;
  padding: 0.5rem 0.625rem;
  border: 1px solid var(--kasa-muted);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
  line-height: 1.4;
  resize: vertical;
`;

const EditBar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: flex-end;
  gap: 0.5rem;
  font-size: 0.8125rem;
  color: var(--kasa-muted);
  /* Brought into view with a little room under it. */
  scroll-margin-bottom: 1rem;
  span {
    margin-inline-end: auto;
  }
  @media (max-width: 48rem) {
    span {
      display: none;
    }
    button {
      min-height: 2.75rem;
    }
  }
`;

/**
 * The inline editor of one of my messages: its text, Save (or Enter) to send it as a new version of the message,
 * Cancel (or Escape) to leave it as it is. Inside a VersionsSection.
 */
export function MessageEditor({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (content: string) => void;
  onCancel: () => void;
}) {
  const t = useVersionsT();
  const common = useT();
  const [text, setText] = useState(initial);
  const field = useRef<HTMLTextAreaElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  const fieldId = useId();
  const hintId = useId();

  // The editor opens in sight with its Save and Cancel, not under the composer at the conversation's bottom edge;
  // and again when the window shrinks while it is being typed in (a phone's on-screen keyboard).
  useEffect(() => {
    const element = field.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.setSelectionRange(element.value.length, element.value.length);
    const reveal = () => {
      element.closest('form')?.scrollIntoView({ block: 'nearest' });
      bar.current?.scrollIntoView({ block: 'nearest' });
    };
    reveal();
    const onResize = () => {
      if (document.activeElement === element) reveal();
    };
    window.addEventListener('resize', onResize);
    window.visualViewport?.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.visualViewport?.removeEventListener('resize', onResize);
    };
  }, []);

  const save = () => {
    const content = text.trim();
    if (content) onSave(content);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };

  return (
    <EditForm
      aria-label={t('versions.editMessage')}
      data-testid="message-editor"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save();
      }}
    >
      <HiddenLabel htmlFor={fieldId}>{t('versions.editMessage')}</HiddenLabel>
      <EditArea
        id={fieldId}
        ref={field}
        rows={3}
        value={text}
        maxLength={MAX_MESSAGE_LENGTH}
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <EditBar ref={bar}>
        <span id={hintId}>{t('versions.editHint')}</span>
        <Button type="button" variant="ghost" compact onClick={onCancel}>
          {common('common.cancel')}
        </Button>
        <Button type="submit" compact disabled={!text.trim()}>
          {common('common.save')}
        </Button>
      </EditBar>
    </EditForm>
  );
}
