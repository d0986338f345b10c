import { richText } from '@kasa/i18n/richText';
import { Muted } from '@kasa/ui';
import { API_KEY_PLACEHOLDER } from '../examples/examples';
import { usePanelsT } from '../i18n/panels/usePanelsT';

/** Where a quick start that runs on a server reads the API key (an identifier, the same in every language). */
export const API_KEY_VARIABLE = 'KASA_API_KEY';

/** How a quick start gets its key: from KASA_API_KEY, or, in a browser sample, in place of the placeholder. */
export function QuickStartNote({ sample }: { sample: string }) {
  const t = usePanelsT();
  return (
    <Muted>
      {sample.includes(API_KEY_PLACEHOLDER)
        ? richText((parts) => t('sdks.quickStartNote', parts), { placeholder: <code>{API_KEY_PLACEHOLDER}</code> })
        : richText((parts) => t('sdks.quickStartEnvNote', parts), { variable: <code>{API_KEY_VARIABLE}</code> })}
    </Muted>
  );
}
