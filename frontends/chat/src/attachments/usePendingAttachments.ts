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
  /** Why the file was refused (once `failed`): the service's words, or a size or count limit. */
  error: string | null;
}

/** Why a file is refused before it is sent: what the composer knows of the limits. */
export type RefusalReason = 'tooMany' | 'imageTooLarge' | 'documentTooLarge';

let nextKey = 0;

const forget = (attachment: Attachment) => void deleteAttachment(attachment.id).catch(() => undefined);

/**
 * The attachments of the message being written. Each file uploads as soon as it is added (so Send does not wait for
 * it), with its progress; a removed or abandoned file is deleted from the service so it does not use the person's
 * allowance. `take()` hands the uploaded ones to the message being sent and clears the list.
 *
 * What the service stored is kept in a ref as each upload ends, not only in state, so that a removal, a send or
 * leaving the conversation right after an upload ends still knows of it (and nothing stays stored unseen).
 */
export function usePendingAttachments(refusal: (reason: RefusalReason) => string) {
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const uploads = useRef(new Map<string, AbortController>());
  const stored = useRef(new Map<string, Attachment>());
  const previews = useRef(new Map<string, string>());
  /** The files that take one of the message's places (not refused ones), in the order they were added. */
  const order = useRef<string[]>([]);

  const update = (key: string, change: Partial<PendingAttachment>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const add = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file): PendingAttachment => {
        const image = looksLikeImage(file);
        const limit = image ? ATTACHMENT_RULES.imageBytes : ATTACHMENT_RULES.documentBytes;
        const refused: RefusalReason | null =
          order.current.length >= ATTACHMENT_RULES.perMessage
            ? 'tooMany'
            : file.size > limit
              ? image
                ? 'imageTooLarge'
                : 'documentTooLarge'
              : null;
        const key = `a${++nextKey}`;
        const previewUrl = image && !refused ? URL.createObjectURL(file) : null;
        if (previewUrl) previews.current.set(key, previewUrl);
        if (!refused) {
          order.current.push(key);
          const controller = new AbortController();
          uploads.current.set(key, controller);
          uploadAttachment(file, (progress) => update(key, { progress }), controller.signal)
            .then((attachment) => {
              if (controller.signal.aborted) return forget(attachment); // removed meanwhile
              stored.current.set(key, attachment);
              update(key, { state: 'ready', progress: 1 });
            })
            .catch((error: unknown) => {
              if (controller.signal.aborted) return;
              order.current = order.current.filter((other) => other !== key);
              update(key, { state: 'failed', error: describeFailure(error) });
            })
            .finally(() => uploads.current.delete(key));
        }
        return {
          key,
          name: file.name || 'file',
          size: file.size,
          previewUrl,
          state: refused ? 'failed' : 'uploading',
          progress: 0,
          error: refused ? refusal(refused) : null,
        };
      });
      setItems((current) => [...current, ...added]);
    },
    [refusal],
  );

  /** Drops one file: its upload stops, or what was stored is deleted. */
  const remove = useCallback((key: string) => {
    uploads.current.get(key)?.abort();
    const attachment = stored.current.get(key);
    if (attachment) forget(attachment);
    stored.current.delete(key);
    order.current = order.current.filter((other) => other !== key);
    const preview = previews.current.get(key);
    if (preview) URL.revokeObjectURL(preview);
    previews.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
  }, []);

  /** The uploaded attachments, in the order they were added, for the message being sent; the list starts afresh. */
  const take = useCallback((): MessageAttachment[] => {
    const sent = order.current.flatMap((key) => {
      const attachment = stored.current.get(key);
      return attachment ? [attachment] : [];
    });
    stored.current.clear();
    order.current = [];
    for (const preview of previews.current.values()) URL.revokeObjectURL(preview);
    previews.current.clear();
    setItems([]);
    return sent.map(({ id, kind, name, mediaType, size }) => ({ id, kind, name, mediaType, size }));
  }, []);

  // Leaving the conversation with files not sent: stop their uploads and give their places back.
  useEffect(
    () => () => {
      for (const controller of uploads.current.values()) controller.abort();
      for (const attachment of stored.current.values()) forget(attachment);
      for (const preview of previews.current.values()) URL.revokeObjectURL(preview);
    },
    [],
  );

  return {
    items,
    add,
    remove,
    take,
    uploading: items.some((item) => item.state === 'uploading'),
  };
}
