import styled from '@emotion/styled';
import type { ServerGap } from '@kasa/ui/serverOffers';
import { Button } from '@kasa/ui';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import { usePagesT } from '../i18n/pages/usePagesT';
import { ServerGapList } from './ServerGapList';

const Gaps = styled.div`
  margin-bottom: 1rem;
`;

/**
 * Before a checkout on a server that cannot deliver all of the plan yet: what it lacks now, the same lines as the
 * plan's card, and whether to go on to the payment. Only shown when something is missing.
 */
export function UpgradeConfirmDialog({
  planName,
  gaps,
  answersFromNotes,
  onContinue,
  onClose,
}: {
  planName: string;
  gaps: readonly ServerGap[];
  /** No AI provider is connected: replies come from the built-in notes. */
  answersFromNotes: boolean;
  onContinue: () => void;
  onClose: () => void;
}) {
  const t = usePagesT();
  return (
    <ModalDialog title={t('offers.confirm.title')} onClose={onClose} testId="upgrade-confirm" width="30rem">
      <p>{t('offers.confirm.text', { plan: planName })}</p>
      <Gaps>
        <ServerGapList gaps={gaps} testId="upgrade-confirm-gaps" />
      </Gaps>
      {answersFromNotes ? <p>{t('offers.notes')}</p> : null}
      <DialogActions>
        <Button type="button" variant="ghost" onClick={onClose}>
          {t('offers.confirm.cancel')}
        </Button>
        <Button type="button" variant="primary" onClick={onContinue}>
          {t('offers.confirm.continue')}
        </Button>
      </DialogActions>
    </ModalDialog>
  );
}
