import styled from '@emotion/styled';
import { isApiError } from '@kasa/api-client';
import type { ConversationShare } from '@kasa/contracts';
import { SectionCatalogue } from '@kasa/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createShare, fetchShare, shareKeys, shareUrl, stopSharing } from './shareApi';
import { describeFailure } from '../conversation/useConversation';
import { SHARE_LOADERS } from '../i18n/share/catalogues';
import { useShareT } from '../i18n/share/useShareT';
import { Button, InlineError, Muted, TextInput } from '@kasa/ui';
import { CopyButton, DialogActions, ModalDialog } from '@kasa/ui/widgets';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  align-items: center;
  margin-bottom: 0.75rem;
  input {
    flex: 1 1 14rem;
  }
`;

/** A 400 from sharing means the conversation has nothing in it yet. */
const isEmptyConversation = (error: unknown) => isApiError(error) && error.status === 400;
const isNotShared = (error: unknown) => isApiError(error) && error.status === 404;

function ShareDialogBody({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const t = useShareT();
  const queryClient = useQueryClient();
  const key = shareKeys.link(sessionId);
  const [stopped, setStopped] = useState(false);
  const link = useQuery({
    queryKey: key,
    queryFn: () => fetchShare(sessionId),
    retry: (count, error) => !isNotShared(error) && count < 2,
  });
  const share = useMutation({
    mutationFn: () => createShare(sessionId),
    onSuccess: (created: ConversationShare) => {
      setStopped(false);
      queryClient.setQueryData(key, created);
    },
  });
  const stop = useMutation({
    mutationFn: () => stopSharing(sessionId),
    onSuccess: () => {
      setStopped(true);
      queryClient.removeQueries({ queryKey: key });
      void link.refetch();
    },
  });

  const busy = share.isPending || stop.isPending;
  const current = stopped ? undefined : link.data;
  const notShared = stopped || (link.isError && isNotShared(link.error));
  const failure = share.error ?? stop.error ?? (link.isError && !isNotShared(link.error) ? link.error : null);

  return (
    <>
      <p>{t('share.explain')}</p>
      {link.isPending && !stopped ? <Muted role="status">{t('share.loading')}</Muted> : null}
      {current ? (
        <>
          <Row>
            <TextInput
              readOnly
              value={shareUrl(current)}
              aria-label={t('share.linkLabel')}
              data-testid="share-link"
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={shareUrl(current)} label={t('share.copy')} />
          </Row>
          <Muted data-testid="share-count">
            {t('share.count', {
              count: current.messageCount,
              when: new Intl.DateTimeFormat(document.documentElement.lang || 'en', {
                dateStyle: 'medium',
                timeStyle: 'short',
              }).format(new Date(current.sharedAt)),
            })}
          </Muted>
        </>
      ) : null}
      {stopped ? (
        <Muted role="status" data-testid="share-stopped">
          {t('share.stopped')}
        </Muted>
      ) : null}
      {failure ? (
        <InlineError role="alert">
          <p>
            {isEmptyConversation(failure) ? t('share.empty') : t('share.failed', { reason: describeFailure(failure) })}
          </p>
        </InlineError>
      ) : null}
      <DialogActions>
        <Button type="button" variant="ghost" onClick={onClose}>
          {t('share.close')}
        </Button>
        {current ? (
          <>
            <Button type="button" variant="danger" disabled={busy} onClick={() => stop.mutate()}>
              {stop.isPending ? t('share.working') : t('share.stop')}
            </Button>
            <Button type="button" variant="secondary" disabled={busy} onClick={() => share.mutate()}>
              {share.isPending ? t('share.working') : t('share.update')}
            </Button>
          </>
        ) : null}
        {notShared ? (
          <Button type="button" disabled={busy} onClick={() => share.mutate()}>
            {share.isPending ? t('share.working') : t('share.create')}
          </Button>
        ) : null}
      </DialogActions>
    </>
  );
}

/**
 * Sharing a conversation as a read-only link, in a modal (see ModalDialog: focus kept inside, Escape closes, focus
 * returns to the Share button): create the link, copy it, bring it up to date, or stop sharing.
 */
export default function ShareDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  return (
    <SectionCatalogue loaders={SHARE_LOADERS}>
      <ModalDialog title={<ShareTitle />} onClose={onClose} width="30rem" testId="share-dialog">
        <ShareDialogBody sessionId={sessionId} onClose={onClose} />
      </ModalDialog>
    </SectionCatalogue>
  );
}

function ShareTitle() {
  const t = useShareT();
  return <>{t('share.title')}</>;
}
