import { useId, useRef, useState, type FormEvent } from 'react';
import { tierLabel } from '@kasa/api-client';
import { Button, Muted, TextInput } from '@kasa/ui';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import type { InquiryStatus, InquiryView } from '../api/adminApi';
import { useGrantEnterprise, useInquiries } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { useT, type MessageId } from '../i18n/useT';
import { contractEnd, defaultEndDay, parseSeats, SEATS_MAX, tomorrow } from '../sales/contractTerms';
import { Badge, Facts, FieldProblem, FormField, Hint, ItemList, Panel, Row, Stack } from '../ui/controls';
import { ActionError, Empty, LoadError, Loading, Notice } from '../ui/States';

const STATUS_TEXT: Record<InquiryStatus, MessageId> = {
  open: 'sales.status.open',
  contacted: 'sales.status.contacted',
  closed: 'sales.status.closed',
};

/** The contract's terms for one inquiry: seats and the last day, then Grant Enterprise. */
function GrantDialog({
  inquiry,
  onGranted,
  onCancel,
}: {
  inquiry: InquiryView;
  onGranted: (message: string) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const formats = useFormats();
  const describe = useDescribeFailure();
  const grant = useGrantEnterprise();
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const [seats, setSeats] = useState(String(inquiry.seats ?? 1));
  const [endDay, setEndDay] = useState(defaultEndDay());
  const [problems, setProblems] = useState<{ seats?: MessageId; end?: MessageId }>({});
  const who = inquiry.company ?? inquiry.username;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const count = parseSeats(seats);
    const endsAt = contractEnd(endDay);
    const found = {
      ...(count === null ? { seats: 'sales.problem.seats' as const } : {}),
      ...(endsAt === null ? { end: 'sales.problem.end' as const } : {}),
    };
    setProblems(found);
    if (count === null || endsAt === null) return;
    grant.mutate(
      { inquiryId: inquiry.id, terms: { seats: count, endsAt } },
      {
        onSuccess: (answer) =>
          onGranted(
            t('sales.granted', {
              email: answer.email,
              count,
              date: formats.date(answer.subscription.currentPeriodEnd ?? endsAt),
            }),
          ),
      },
    );
  };

  return (
    <ModalDialog
      title={t('sales.grantTitle', { name: who })}
      onClose={onCancel}
      initialFocus={cancel}
      width="30rem"
      testId="grant-dialog"
    >
      <p>{t('sales.grantText', { email: inquiry.email })}</p>
      <form onSubmit={submit} noValidate>
        <FormField>
          <label htmlFor={`${id}-seats`}>{t('sales.seats')}</label>
          <TextInput
            id={`${id}-seats`}
            type="number"
            inputMode="numeric"
            min={1}
            max={SEATS_MAX}
            step={1}
            value={seats}
            aria-invalid={problems.seats ? true : undefined}
            aria-describedby={problems.seats ? `${id}-seats-problem` : undefined}
            onChange={(event) => setSeats(event.target.value)}
          />
          {problems.seats ? (
            <FieldProblem id={`${id}-seats-problem`}>{t(problems.seats, { max: SEATS_MAX })}</FieldProblem>
          ) : null}
        </FormField>
        <FormField>
          <label htmlFor={`${id}-end`}>{t('sales.endDate')}</label>
          <TextInput
            id={`${id}-end`}
            type="date"
            min={tomorrow()}
            value={endDay}
            aria-invalid={problems.end ? true : undefined}
            aria-describedby={`${id}-end-hint${problems.end ? ` ${id}-end-problem` : ''}`}
            onChange={(event) => setEndDay(event.target.value)}
          />
          <Hint id={`${id}-end-hint`}>{t('sales.endHint')}</Hint>
          {problems.end ? <FieldProblem id={`${id}-end-problem`}>{t(problems.end)}</FieldProblem> : null}
        </FormField>
        {grant.isError ? <ActionError message={describe('grantEnterprise', grant.error)} /> : null}
        <DialogActions style={{ marginTop: '1rem' }}>
          <Button ref={cancel} type="button" variant="ghost" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={grant.isPending}>
            {grant.isPending ? t('common.working') : t('sales.grant')}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}

function InquiryItem({ inquiry, onGrant }: { inquiry: InquiryView; onGrant: () => void }) {
  const t = useT();
  const formats = useFormats();
  const titleId = useId();
  return (
    <li data-testid="inquiry" data-inquiry={inquiry.id} aria-labelledby={titleId}>
      <Row>
        <h3 id={titleId} style={{ margin: 0 }}>
          {inquiry.company ?? inquiry.username}
        </h3>
        <Badge tone={inquiry.status === 'open' ? 'accent' : 'default'}>{t(STATUS_TEXT[inquiry.status])}</Badge>
      </Row>
      <p style={{ margin: '0.25rem 0 0', overflowWrap: 'anywhere' }}>
        {t('sales.who', { name: inquiry.username, email: inquiry.email })}
      </p>
      <Facts>
        <div>
          <dt>{t('sales.seatsAsked')}</dt>
          <dd>{formats.count(inquiry.seats)}</dd>
        </div>
        <div>
          <dt>{t('sales.currentPlan')}</dt>
          <dd>{tierLabel(inquiry.currentTier)}</dd>
        </div>
        <div>
          <dt>{t('sales.lastAsked')}</dt>
          <dd>
            {t('sales.lastAskedValue', {
              date: formats.dateTime(inquiry.lastRequestedAt),
              count: inquiry.requestCount,
            })}
          </dd>
        </div>
        {inquiry.phone ? (
          <div>
            <dt>{t('sales.phone')}</dt>
            <dd>
              <a href={`tel:${inquiry.phone.replace(/[^+\d]/g, '')}`}>{inquiry.phone}</a>
            </dd>
          </div>
        ) : null}
      </Facts>
      {inquiry.message ? (
        <blockquote
          style={{
            margin: '0 0 0.75rem',
            paddingInlineStart: '0.75rem',
            borderInlineStart: '3px solid var(--kasa-border)',
          }}
        >
          {inquiry.message}
        </blockquote>
      ) : null}
      {inquiry.status === 'closed' ? null : (
        <Button type="button" onClick={onGrant}>
          {t('sales.grant')}
        </Button>
      )}
    </li>
  );
}

/** Sales: the Enterprise inquiries, newest first, each turned into an Enterprise contract (seats, an end date). */
export default function SalesTab() {
  const t = useT();
  const describe = useDescribeFailure();
  const inquiries = useInquiries();
  const [granting, setGranting] = useState<InquiryView | null>(null);
  const [done, setDone] = useState<string | null>(null);

  let body;
  if (inquiries.isPending) body = <Loading>{t('sales.loading')}</Loading>;
  else if (inquiries.isError && !inquiries.data)
    body = (
      <LoadError
        message={t('sales.loadFailed', { reason: describe('load', inquiries.error) })}
        onRetry={() => void inquiries.refetch()}
      />
    );
  else if (inquiries.data.length === 0) body = <Empty testId="inquiries-empty">{t('sales.empty')}</Empty>;
  else
    body = (
      <ItemList data-testid="inquiries">
        {inquiries.data.map((inquiry) => (
          <InquiryItem
            key={inquiry.id}
            inquiry={inquiry}
            onGrant={() => {
              setDone(null);
              setGranting(inquiry);
            }}
          />
        ))}
      </ItemList>
    );

  return (
    <Panel aria-labelledby="admin-sales-title">
      <h2 id="admin-sales-title">{t('sales.title')}</h2>
      <Stack>
        <Muted>{t('sales.intro')}</Muted>
        {done ? <Notice>{done}</Notice> : null}
        {body}
      </Stack>
      {granting ? (
        <GrantDialog
          inquiry={granting}
          onCancel={() => setGranting(null)}
          onGranted={(message) => {
            setGranting(null);
            setDone(message);
          }}
        />
      ) : null}
    </Panel>
  );
}
