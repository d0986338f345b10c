import styled from '@emotion/styled';
import { Button, FileText, ICON, X } from '@kasa/ui';
import { useT } from '../i18n/useT';
import { Chip, ChipList, ChipText, Preview, sizeText } from './attachmentChips';
import type { PendingAttachment } from './usePendingAttachments';

const Bar = styled.progress`
  grid-column: 1 / -1;
  width: 100%;
  height: 0.25rem;
  accent-color: var(--kasa-primary);
`;

/**
 * On a phone, one row that scrolls sideways (as the personas do): a chip a row would push the composer, and Send,
 * below the bottom of the screen.
 */
const PendingList = styled(ChipList)`
  @media (max-width: 48rem) {
    flex-wrap: nowrap;
    overflow-x: auto;
    overscroll-behavior-x: contain;
    > li {
      flex: none;
      width: min(14rem, 80%);
    }
  }
`;

const Failure = styled.span`
  grid-column: 1 / -1;
  color: var(--kasa-danger);
`;

/**
 * The files added to the message being written: each with its preview (images) or a document icon, its name and
 * size, the upload's progress, why it was refused if it was, and a button that removes it.
 */
export function PendingAttachmentList({
  items,
  onRemove,
}: {
  items: readonly PendingAttachment[];
  onRemove: (key: string) => void;
}) {
  const t = useT();
  return (
    <PendingList aria-label={t('attachments.pending')} data-testid="pending-attachments">
      {items.map((item) => (
        <Chip key={item.key} data-state={item.state} data-testid="pending-attachment">
          <Preview>{item.previewUrl ? <img src={item.previewUrl} alt="" /> : <FileText {...ICON} size={20} />}</Preview>
          <ChipText>
            <strong dir="auto" title={item.name}>
              {item.name}
            </strong>
            <span>
              {item.state === 'uploading'
                ? t('attachments.uploading', { percent: Math.round(item.progress * 100) })
                : item.state === 'ready'
                  ? sizeText(t, item.size)
                  : t('attachments.notAttached')}
            </span>
          </ChipText>
          <Button
            type="button"
            variant="ghost"
            compact
            aria-label={t('attachments.remove', { name: item.name })}
            title={t('attachments.remove', { name: item.name })}
            onClick={() => onRemove(item.key)}
          >
            <X {...ICON} />
          </Button>
          {item.state === 'uploading' ? (
            <Bar max={1} value={item.progress} aria-label={t('attachments.progress', { name: item.name })} />
          ) : null}
          {item.error ? <Failure role="alert">{item.error}</Failure> : null}
        </Chip>
      ))}
    </PendingList>
  );
}
