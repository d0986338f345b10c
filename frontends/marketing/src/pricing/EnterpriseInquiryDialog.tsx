import styled from '@emotion/styled';
import { useState, type FormEvent } from 'react';
import type { EnterpriseInquiryDetails } from '@kasa/contracts';
import type { ServerGap } from '@kasa/ui/serverOffers';
import { Button } from '@kasa/ui';
import { DialogActions, Field, ModalDialog } from '@kasa/ui/widgets';
import { usePagesT } from '../i18n/pages/usePagesT';
import { ServerGapList } from './ServerGapList';

const Gaps = styled.div`
  margin-bottom: 1rem;
`;

/**
 * The Enterprise inquiry form: company, seats and a number to call back on (the account's e-mail is always kept), sent
 * with the checkout of a plan sold by the sales team. Seats are checked here as the server checks them (1-100,000).
 * What of the plan this server cannot deliver now (`gaps`) is said before anything is sent.
 */
export function EnterpriseInquiryDialog({
  sending,
  onSend,
  onClose,
  gaps = [],
}: {
  sending: boolean;
  onSend: (details: EnterpriseInquiryDetails) => void;
  onClose: () => void;
  gaps?: readonly ServerGap[];
}) {
  const t = usePagesT();
  const [company, setCompany] = useState('');
  const [seats, setSeats] = useState('');
  const [phone, setPhone] = useState('');
  const [message, setMessage] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const count = Number(seats);
    if (!company.trim() || !Number.isInteger(count) || count < 1 || count > 100_000) return;
    onSend({
      company: company.trim(),
      seats: count,
      ...(phone.trim() ? { phone: phone.trim() } : {}),
      ...(message.trim() ? { message: message.trim() } : {}),
    });
  };

  return (
    <ModalDialog title={t('inquiry.title')} onClose={onClose} testId="enterprise-inquiry">
      <p>{t('inquiry.text')}</p>
      {gaps.length > 0 ? (
        <>
          <p>{t('offers.inquiry')}</p>
          <Gaps>
            <ServerGapList gaps={gaps} testId="inquiry-server-gaps" />
          </Gaps>
        </>
      ) : null}
      <form aria-label={t('inquiry.title')} onSubmit={submit}>
        <Field
          label={t('inquiry.company')}
          value={company}
          onValueChange={setCompany}
          required
          maxLength={120}
          autoComplete="organization"
        />
        <Field
          label={t('inquiry.seats')}
          value={seats}
          onValueChange={setSeats}
          required
          type="number"
          min={1}
          max={100_000}
          step={1}
          inputMode="numeric"
        />
        <Field
          label={t('inquiry.phone')}
          value={phone}
          onValueChange={setPhone}
          maxLength={40}
          type="tel"
          autoComplete="tel"
        />
        <Field label={t('inquiry.message')} value={message} onValueChange={setMessage} maxLength={1000} />
        <DialogActions>
          <Button type="button" variant="ghost" onClick={onClose}>
            {t('inquiry.cancel')}
          </Button>
          <Button type="submit" variant="primary" disabled={sending}>
            {sending ? t('inquiry.sending') : t('inquiry.send')}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}
