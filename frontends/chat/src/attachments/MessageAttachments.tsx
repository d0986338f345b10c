import styled from '@emotion/styled';
import type { MessageAttachment } from '@kasa/contracts';
import { Button, Download, FileText, ICON } from '@kasa/ui';
import { useEffect, useState } from 'react';
import { describeFailure } from '../conversation/useConversation';
import { useT } from '../i18n/useT';
import { attachmentObjectUrl } from './attachmentApi';
import { Chip, ChipList, ChipText, Preview, sizeText } from './attachmentChips';

const List = styled(ChipList)`
  margin-bottom: 0.5rem;
`;

const Failure = styled.span`
  grid-column: 1 / -1;
  color: var(--kasa-danger);
`;

/** An image's thumbnail, fetched with the person's token (an <img src> cannot send it); the icon until it comes. */
function Thumbnail({ attachment }: { attachment: MessageAttachment }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (attachment.kind !== 'image') return;
    const abort = new AbortController();
    let made: string | null = null;
    attachmentObjectUrl(attachment.id, 'thumbnail', abort.signal)
      .then((objectUrl) => {
        made = objectUrl;
        setUrl(objectUrl);
      })
      .catch(() => undefined); // no thumbnail (deleted, or none could be made): the icon stays
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [attachment.id, attachment.kind]);
  return <Preview>{url ? <img src={url} alt="" /> : <FileText {...ICON} size={20} />}</Preview>;
}

/** Saves the file under its name: fetched with the person's token, then handed to the browser as a download. */
async function download(attachment: MessageAttachment): Promise<void> {
  const url = await attachmentObjectUrl(attachment.id, 'file');
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = attachment.name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The browser has taken the file once the click is handled.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

function AttachmentItem({ attachment }: { attachment: MessageAttachment }) {
  const t = useT();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const save = () => {
    setState({ busy: true, error: null });
    download(attachment)
      .then(() => setState({ busy: false, error: null }))
      .catch((error: unknown) =>
        setState({ busy: false, error: t('attachments.downloadFailed', { reason: describeFailure(error) }) }),
      );
  };
  return (
    <Chip data-testid="message-attachment">
      <Thumbnail attachment={attachment} />
      <ChipText>
        <strong dir="auto" title={attachment.name}>
          {attachment.name}
        </strong>
        <span>{sizeText(t, attachment.size)}</span>
      </ChipText>
      <Button
        type="button"
        variant="ghost"
        compact
        disabled={state.busy}
        aria-label={t('attachments.download', { name: attachment.name })}
        title={t('attachments.download', { name: attachment.name })}
        onClick={save}
      >
        <Download {...ICON} />
      </Button>
      {state.error ? <Failure role="alert">{state.error}</Failure> : null}
    </Chip>
  );
}

/** The images and documents sent with a message: a thumbnail or an icon each, and a button to save the file. */
export function MessageAttachments({ attachments }: { attachments: readonly MessageAttachment[] }) {
  const t = useT();
  return (
    <List aria-label={t('attachments.sent')}>
      {attachments.map((attachment) => (
        <AttachmentItem key={attachment.id} attachment={attachment} />
      ))}
    </List>
  );
}
