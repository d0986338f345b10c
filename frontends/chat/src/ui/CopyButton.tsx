import { useEffect, useRef, useState } from 'react';
import { Button } from './controls';
import { useT } from '../i18n/useT';

/** How long 'Copied' shows after a copy (spec section 9: copy confirmation 2 s). */
export const COPIED_FOR_MS = 2_000;

/** Copies `text` to the clipboard; says 'Copied' for 2 s, or 'Copy failed' when the browser refuses. */
export function CopyButton({ text, label, describedBy }: { text: string; label?: string; describedBy?: string }) {
  const t = useT();
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

  return (
    <Button type="button" variant="ghost" compact onClick={() => void copy()} aria-describedby={describedBy}>
      <span aria-live="polite">
        {state === 'copied' ? t('copy.done') : state === 'failed' ? t('copy.failed') : (label ?? t('copy.label'))}
      </span>
    </Button>
  );
}
