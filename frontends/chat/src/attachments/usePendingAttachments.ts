import type { Attachment, MessageAttachment } from '@kasa/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeFailure } from '../conversation/useConversation';
import { ATTACHMENT_RULES, deleteAttachment, looksLikeImage, uploadAttachment } from './attachmentApi';

/** A file the person added to the message being written: uploading, uploaded, or refused. */
export interface PendingAttachment {
  key: string;
  name: string;
  size: number;
  /** A local preview of an image (an object URL of the picked file), before and after the upload. */
  previewUrl: string | null;
  state: 'uploading' | 'ready' | 'failed';
  /** 0 to 1 while uploading. */
  progress: number;
  /** What the service stored (once `ready`). */
  attachment: Attachment | null;
  /** Why the file was refused (once `failed`): the service's words, or a size or count limit. */
  error: string | null;
}

/** Why a file is refused before it is sent: what the composer knows of the limits. */
export type RefusalReason = 'tooMany' | 'imageTooLarge' | 'documentTooLarge';

let nextKey = 0;

/**
 * The attachments of the message being written. Each file uploads as soon as it is added (so Send does not wait for
 * it), with its progress; a removed or abandoned file is deleted from the service so it does not use the person's
 * allowance. `take()` hands the uploaded ones to the message being sent and clears the list.
 */
export function usePendingAttachments(refusal: (reason: RefusalReason) => string) {
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const uploads = useRef(new Map<string, AbortController>());
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const update = (key: string, change: Partial<PendingAttachment>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const add = useCallback(
    (files: readonly File[]) => {
      const room = ATTACHMENT_RULES.perMessage - itemsRef.current.filter((item) => item.state !== 'failed').length;
      const added: PendingAttachment[] = files.map((file, index) => {
        const image = looksLikeImage(file);
        const limit = image ? ATTACHMENT_RULES.imageBytes : ATTACHMENT_RULES.documentBytes;
        const refused: RefusalReason | null =
          index >= room ? 'tooMany' : file.size > limit ? (image ? 'imageTooLarge' : 'documentTooLarge') : null;
        const key = `a${++nextKey}`;
        const item: PendingAttachment = {
          key,
          name: file.name || 'file',
          size: file.size,
          previewUrl: image && !refused ? URL.createObjectURL(file) : null,
          state: refused ? 'failed' : 'uploading',
          progress: 0,
          attachment: null,
          error: refused ? refusal(refused) : null,
        };
        if (!refused) {
          const controller = new AbortController();
          uploads.current.set(key, controller);
          uploadAttachment(file, (progress) => update(key, { progress }), controller.signal)
            .then((attachment) => update(key, { state: 'ready', progress: 1, attachment }))
            .catch((error: unknown) => {
              if (!controller.signal.aborted) update(key, { state: 'failed', error: describeFailure(error) });
            })
            .finally(() => uploads.current.delete(key));
        }
        return item;
      });
      setItems((current) => [...current, ...added]);
    },
    [refusal],
  );

  const remove = useCallback((key: string) => {
    const item = itemsRef.current.find((candidate) => candidate.key === key);
    if (!item) return;
    uploads.current.get(key)?.abort();
    if (item.attachment) void deleteAttachment(item.attachment.id).catch(() => undefined);
    if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
    setItems((current) => current.filter((candidate) => candidate.key !== key));
  }, []);

  /** The uploaded attachments, for the message being sent; the list starts afresh. */
  const take = useCallback((): MessageAttachment[] => {
    const ready = itemsRef.current.flatMap((item) => (item.attachment ? [item.attachment] : []));
    for (const item of itemsRef.current) if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
    setItems([]);
    return ready.map(({ id, kind, name, mediaType, size }) => ({ id, kind, name, mediaType, size }));
  }, []);

  // Leaving the conversation with files not sent: stop their uploads and give their places back.
  useEffect(
    () => () => {
      for (const controller of uploads.current.values()) controller.abort();
      for (const item of itemsRef.current) {
        if (item.attachment) void deleteAttachment(item.attachment.id).catch(() => undefined);
        if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
      }
    },
    [],
  );

  return {
    items,
    add,
    remove,
    take,
    uploading: items.some((item) => item.state === 'uploading'),
    ready: items.some((item) => item.state === 'ready'),
  };
}
