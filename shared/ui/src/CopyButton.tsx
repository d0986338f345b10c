import { useEffect, useRef, useState } from 'react';
import { Button, Check, ICON, type ButtonVariant } from '@kasa/ui';
import { useUiT } from './messages';

/** How long 'Copied' shows after a copy (spec section 9: copy confirmation 2 s). */
export const COPIED_FOR_MS = 2_000;

/**
 * Copies `text` with navigator.clipboard; for 2 s it shows a check and 'Copied' (or 'Copy failed' when the browser
 * refuses, e.g. on a page that is not served over https), announced politely. `data-state` says which
 * (idle, copied, failed). The words come from the catalogue: `copy.label`, `copy.done`, `copy.failed`, and
 * `copy.named` where `context` is given.
 */
export function CopyButton({
  text,
  label,
  context,
  describedBy,
  variant = 'ghost',
  testId,
}: {
  text: string;
  /** The action's name ('Copy code', 'Install'); 'Copy' when not given. */
  label?: string;
  /** Words after the visible label that tell copy buttons apart for screen readers: 'the curl example'. The
   * accessible name starts with the visible text, so people who speak to their computer can say what they see. */
  context?: string;
  /** The id of the element whose text is copied, read as the button's description. */
  describedBy?: string;
  variant?: ButtonVariant;
  testId?: string;
}) {
  const t = useUiT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_FOR_MS);
  };

  const shown =
    state === 'copied' ? t('copy.done') : state === 'failed' ? t('copy.failed') : (label ?? t('copy.label'));
  return (
    <Button
      type="button"
      variant={variant}
      compact
      onClick={() => void copy()}
      aria-label={context ? t('copy.named', { action: shown, context }) : undefined}
      aria-describedby={describedBy}
      data-testid={testId}
      data-state={state}
    >
      {state === 'copied' ? <Check {...ICON} /> : null}
      <span aria-live="polite">{shown}</span>
    </Button>
  );
}
