import { useMemo } from 'react';
import { MARKETING_ENGLISH } from './catalogues';
import { planTextIndex, planTextTranslator } from './planText';
import { useT } from './useT';

const index = planTextIndex(MARKETING_ENGLISH);

/** The plans' texts (from GET /api/billing/plans) in the current language; see planText.ts. */
export function usePlanText(): (text: string) => string {
  const t = useT();
  return useMemo(() => planTextTranslator(index, t), [t]);
}
