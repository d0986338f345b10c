import { useId, useState, type FormEvent } from 'react';
import { tierLabel, useAuth } from '@kasa/api-client';
import type { PersonDetail, SubscriptionTier } from '@kasa/contracts';
import { Button, Muted, Select } from '@kasa/ui';
import { ConfirmDialog } from '@kasa/ui/widgets';
import { useChangePlan, usePerson, useRestore, useSuspend } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { useT, type MessageId } from '../i18n/useT';
import {
  Badge,
  Facts,
  FieldProblem,
  FormField,
  Hint,
  ItemList,
  Mono,
  NoteArea,
  Panel,
  Row,
  Stack,
} from '../ui/controls';
import { ReasonDialog, REASON_MAX } from '../ui/ReasonDialog';
import { ActionError, LoadError, Loading, Notice } from '../ui/States';
import { keyState, processorLabel, subscriptionStatusLabel, teamRoleLabel, type KeyState } from './personText';

const TIERS: readonly SubscriptionTier[] = ['free', 'pro', 'enterprise'];

const KEY_STATES: Record<KeyState, MessageId> = {
  active: 'key.active',
  revoked: 'key.revoked',
  expired: 'key.expired',
};

/** The person's plan: its tier, and the subscription behind it when there is one. */
function PlanFacts({ person }: { person: PersonDetail }) {
  const t = useT();
  const formats = useFormats();
  const subscription = person.plan.subscription;
  return (
    <Facts>
      <div>
        <dt>{t('person.plan')}</dt>
        <dd data-testid="person-plan">{tierLabel(person.plan.tier)}</dd>
      </div>
      <div>
        <dt>{t('person.allowance')}</dt>
        <dd>
          {person.usage.monthlyCalls === null
            ? t('person.unlimited')
            : t('person.callsPerMonth', { count: person.usage.monthlyCalls })}
        </dd>
      </div>
      {subscription ? (
        <>
          <div>
            <dt>{t('person.billedBy')}</dt>
            <dd>{processorLabel(t, subscription.processor)}</dd>
          </div>
          <div>
            <dt>{t('person.subscriptionStatus')}</dt>
            <dd>{subscriptionStatusLabel(t, subscription.status)}</dd>
          </div>
          {subscription.currentPeriodEnd ? (
            <div>
              <dt>{subscription.cancelAtPeriodEnd ? t('person.endsOn') : t('person.renewsOn')}</dt>
              <dd>{formats.date(subscription.currentPeriodEnd)}</dd>
            </div>
          ) : null}
          {subscription.seats !== null ? (
            <div>
              <dt>{t('person.seats')}</dt>
              <dd>{formats.count(subscription.seats)}</dd>
            </div>
          ) : null}
        </>
      ) : null}
      <div>
        <dt>{t('person.joined')}</dt>
        <dd>{formats.dateTime(person.createdAt)}</dd>
      </div>
      <div>
        <dt>{t('person.lastSignIn')}</dt>
        <dd data-testid="person-last-sign-in">
          {person.lastSignInAt ? formats.dateTime(person.lastSignInAt) : t('person.never')}
        </dd>
      </div>
    </Facts>
  );
}

/** Whether the account works, and if not since when, why and by whom. */
function SuspensionFacts({ person }: { person: PersonDetail }) {
  const t = useT();
  const formats = useFormats();
  const { suspension } = person;
  if (!suspension.suspended) return <Muted data-testid="person-standing">{t('person.notSuspended')}</Muted>;
  return (
    <div data-testid="person-standing">
      <p style={{ margin: 0, fontWeight: 600 }}>
        {t('person.suspendedSince', { date: formats.dateTime(suspension.suspendedAt) })}
      </p>
      {suspension.reason ? (
        <p style={{ margin: '0.25rem 0 0' }}>{t('person.reason', { reason: suspension.reason })}</p>
      ) : null}
      {suspension.suspendedBy ? (
        <Muted>
          {t('person.suspendedBy')} <Mono>{suspension.suspendedBy}</Mono>
        </Muted>
      ) : null}
    </div>
  );
}

function KeysList({ person }: { person: PersonDetail }) {
  const t = useT();
  const formats = useFormats();
  if (person.apiKeys.length === 0) return <Muted>{t('person.noKeys')}</Muted>;
  return (
    <ItemList data-testid="person-keys">
      {person.apiKeys.map((key) => (
        <li key={key.id}>
          <Row>
            <strong>{key.name}</strong>
            <Mono>{key.prefix}</Mono>
            <Badge tone={keyState(key) === 'active' ? 'default' : 'danger'}>{t(KEY_STATES[keyState(key)])}</Badge>
            {key.teamId ? <Badge>{t('key.team')}</Badge> : null}
          </Row>
          <Muted>
            {t('key.dates', {
              created: formats.date(key.createdAt),
              used: key.lastUsedAt ? formats.dateTime(key.lastUsedAt) : t('person.never'),
            })}
          </Muted>
        </li>
      ))}
    </ItemList>
  );
}

function TeamsList({ person }: { person: PersonDetail }) {
  const t = useT();
  if (person.teams.length === 0) return <Muted>{t('person.noTeams')}</Muted>;
  return (
    <ItemList data-testid="person-teams">
      {person.teams.map((team) => (
        <li key={team.id}>
          <Row>
            <strong>{team.name}</strong>
            <Badge>{teamRoleLabel(t, team.role)}</Badge>
          </Row>
        </li>
      ))}
    </ItemList>
  );
}

/** Suspend or restore, each asking why in a dialog first. */
function StandingActions({ person, self }: { person: PersonDetail; self: boolean }) {
  const t = useT();
  const describe = useDescribeFailure();
  const suspend = useSuspend(person.id);
  const restore = useRestore(person.id);
  const [open, setOpen] = useState<'suspend' | 'restore' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = open === 'restore' ? restore : suspend;

  const close = () => {
    setOpen(null);
    suspend.reset();
    restore.reset();
  };
  const confirm = (reason: string) => {
    setDone(null);
    action.mutate(reason, {
      onSuccess: () => {
        setOpen(null);
        setDone(
          open === 'restore'
            ? t('person.restored', { name: person.username })
            : t('person.suspendedDone', { name: person.username }),
        );
      },
    });
  };

  return (
    <Stack>
      {done ? <Notice>{done}</Notice> : null}
      <Row>
        {person.suspended ? (
          <Button type="button" variant="secondary" onClick={() => setOpen('restore')}>
            {t('person.restore')}
          </Button>
        ) : (
          <Button type="button" variant="danger" onClick={() => setOpen('suspend')}>
            {t('person.suspend')}
          </Button>
        )}
      </Row>
      {open ? (
        <ReasonDialog
          testId={`${open}-dialog`}
          title={
            open === 'suspend'
              ? t('person.suspendTitle', { name: person.username })
              : t('person.restoreTitle', { name: person.username })
          }
          confirmLabel={open === 'suspend' ? t('person.suspend') : t('person.restore')}
          required={open === 'suspend'}
          busy={action.isPending}
          error={action.isError ? describe(open, action.error, { self }) : null}
          onConfirm={confirm}
          onCancel={close}
        >
          <p>{open === 'suspend' ? t('person.suspendText') : t('person.restoreText')}</p>
        </ReasonDialog>
      ) : null}
    </Stack>
  );
}

/** A new plan with a reason, confirmed in a dialog before it is recorded. */
function PlanChange({ person }: { person: PersonDetail }) {
  const t = useT();
  const describe = useDescribeFailure();
  const change = useChangePlan(person.id);
  const id = useId();
  const [tier, setTier] = useState<SubscriptionTier>(person.plan.tier === 'free' ? 'pro' : 'free');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<MessageId | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    change.reset();
    if (tier === person.plan.tier) setProblem('plan.samePlan');
    else if (!reason.trim()) setProblem('reason.required');
    else {
      setProblem(null);
      setConfirming(true);
    }
  };
  const confirm = () => {
    change.mutate(
      { tier, reason: reason.trim() },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setReason('');
          setDone(t('plan.changed', { name: person.username, tier: tierLabel(answer.to) }));
        },
        onError: () => setConfirming(false),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="plan-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('plan.title')}</h3>
      <FormField>
        <label htmlFor={`${id}-tier`}>{t('plan.newPlan')}</label>
        <Select id={`${id}-tier`} value={tier} onChange={(event) => setTier(event.target.value as SubscriptionTier)}>
          {TIERS.map((option) => (
            <option key={option} value={option}>
              {option === person.plan.tier ? t('plan.current', { tier: tierLabel(option) }) : tierLabel(option)}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField>
        <label htmlFor={`${id}-reason`}>{t('reason.label')}</label>
        <NoteArea
          id={`${id}-reason`}
          value={reason}
          maxLength={REASON_MAX}
          aria-invalid={problem === 'reason.required' || undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
          onChange={(event) => setReason(event.target.value)}
        />
        <Hint id={`${id}-hint`}>{t('plan.hint')}</Hint>
        {problem ? <FieldProblem id={`${id}-problem`}>{t(problem)}</FieldProblem> : null}
      </FormField>
      <Stack>
        {change.isError ? <ActionError message={describe('changePlan', change.error)} /> : null}
        {done ? <Notice>{done}</Notice> : null}
        <Row>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? t('common.working') : t('plan.submit')}
          </Button>
        </Row>
      </Stack>
      {confirming ? (
        <ConfirmDialog
          title={t('plan.confirmTitle', {
            name: person.username,
            from: tierLabel(person.plan.tier),
            to: tierLabel(tier),
          })}
          confirmLabel={t('plan.confirm')}
          busy={change.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('plan.confirmText', { reason: reason.trim() })}</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

/** One person as operators see them, with suspend or restore and a change of plan. */
export function PersonDetailPanel({ id }: { id: string }) {
  const t = useT();
  const describe = useDescribeFailure();
  const { user } = useAuth();
  const person = usePerson(id);
  const titleId = useId();

  if (person.isPending)
    return (
      <Panel>
        <Loading>{t('person.loading')}</Loading>
      </Panel>
    );
  if (person.isError && !person.data)
    return (
      <Panel>
        <LoadError
          message={t('person.loadFailed', { reason: describe('loadPerson', person.error) })}
          onRetry={() => void person.refetch()}
        />
      </Panel>
    );

  const detail = person.data;
  return (
    <Panel aria-labelledby={titleId} data-testid="person-detail" data-person={detail.id}>
      <Row style={{ marginBottom: '0.25rem' }}>
        <h2 id={titleId} style={{ margin: 0 }}>
          {detail.username}
        </h2>
        {detail.suspended ? <Badge tone="danger">{t('person.suspended')}</Badge> : null}
        {detail.operator ? <Badge tone="accent">{t('person.operator')}</Badge> : null}
      </Row>
      <p style={{ margin: 0, overflowWrap: 'anywhere' }}>{detail.email}</p>
      <Muted>
        {t('person.id')} <Mono>{detail.id}</Mono>
      </Muted>
      <PlanFacts person={detail} />
      <Stack>
        <section aria-labelledby={`${titleId}-standing`}>
          <h3 id={`${titleId}-standing`}>{t('person.standing')}</h3>
          <Stack>
            <SuspensionFacts person={detail} />
            <StandingActions person={detail} self={user?.id === detail.id} />
          </Stack>
        </section>
        <PlanChange person={detail} />
        <section aria-labelledby={`${titleId}-keys`}>
          <h3 id={`${titleId}-keys`}>{t('person.keys', { count: detail.apiKeys.length })}</h3>
          <KeysList person={detail} />
        </section>
        <section aria-labelledby={`${titleId}-teams`}>
          <h3 id={`${titleId}-teams`}>{t('person.teams')}</h3>
          <TeamsList person={detail} />
        </section>
      </Stack>
    </Panel>
  );
}
