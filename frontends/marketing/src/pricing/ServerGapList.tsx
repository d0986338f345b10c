import styled from '@emotion/styled';
import type { ServerGap } from '@kasa/ui/serverOffers';
import type { PagesMessageId } from '../i18n/pages/usePagesT';
import { usePagesT } from '../i18n/pages/usePagesT';

/** What each gap says: the feature, then plainly what this server does instead or what it needs. */
const GAP_TEXT: Readonly<Record<ServerGap, PagesMessageId>> = {
  images: 'offers.gap.images',
  documentQuotes: 'offers.gap.documentQuotes',
  speechInput: 'offers.gap.speechInput',
  speechOutput: 'offers.gap.speechOutput',
  video: 'offers.gap.video',
};

const List = styled.ul`
  margin: 0;
  padding-left: 1.25rem;
  color: var(--kasa-muted);
  font-size: 0.9375rem;
`;

/**
 * The features of a plan that this server cannot deliver (in full) now, one line each; nothing when it delivers them
 * all. `data-gap` names each line for the tests.
 */
export function ServerGapList({
  gaps,
  id,
  testId,
  className,
}: {
  gaps: readonly ServerGap[];
  id?: string;
  testId?: string;
  className?: string;
}) {
  const t = usePagesT();
  if (gaps.length === 0) return null;
  return (
    <List id={id} data-testid={testId} className={className}>
      {gaps.map((gap) => (
        <li key={gap} data-gap={gap}>
          {t(GAP_TEXT[gap])}
        </li>
      ))}
    </List>
  );
}
