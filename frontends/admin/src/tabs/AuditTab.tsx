import styled from '@emotion/styled';
import { useEffect, useId, useMemo, useState, type FormEvent, type MouseEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { AuditEntry } from '@kasa/contracts';
import { Button, Download, ICON, Muted, Select, TextInput } from '@kasa/ui';
import { auditUrl, downloadAuditCsv } from '../api/adminApi';
import { useAudit } from '../api/adminQueries';
import {
  AUDIT_ACTION_LIST,
  csvFileName,
  filtersFromForm,
  formFromSearch,
  searchFromForm,
  type AuditForm,
} from '../audit/auditFilters';
import { useBase } from '../base';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { useT, type MessageId } from '../i18n/useT';
import { Badge, FormField, Hint, ItemList, Mono, Panel, Row, Stack } from '../ui/controls';
import { ActionError, Empty, LoadError, Loading } from '../ui/States';

/** Each action in words; an action this console does not know yet is shown as the API names it. */
const ACTION_TEXT: Readonly<Record<string, MessageId>> = {
  'user.suspended': 'audit.action.userSuspended',
  'user.restored': 'audit.action.userRestored',
  'plan.changed': 'audit.action.planChanged',
  'apikey.created': 'audit.action.apikeyCreated',
  'apikey.revoked': 'audit.action.apikeyRevoked',
  'sign_in.succeeded': 'audit.action.signInSucceeded',
  'sign_in.failed': 'audit.action.signInFailed',
  'operator.granted': 'audit.action.operatorGranted',
  'operator.revoked': 'audit.action.operatorRevoked',
  'sso.configured': 'audit.action.ssoConfigured',
  'sso.removed': 'audit.action.ssoRemoved',
  'team.invitation_sent': 'audit.action.teamInvitationSent',
  'team.invitation_revoked': 'audit.action.teamInvitationRevoked',
  'team.member_joined': 'audit.action.teamMemberJoined',
  'team.member_removed': 'audit.action.teamMemberRemoved',
  'team.member_left': 'audit.action.teamMemberLeft',
  'team.role_changed': 'audit.action.teamRoleChanged',
  'team.seats_changed': 'audit.action.teamSeatsChanged',
  'team.invitation_declined': 'audit.action.teamInvitationDeclined',
  'team.deleted': 'audit.action.teamDeleted',
  'ai_provider.added': 'audit.action.aiProviderAdded',
  'ai_provider.updated': 'audit.action.aiProviderUpdated',
  'ai_provider.removed': 'audit.action.aiProviderRemoved',
  'ai_provider.reordered': 'audit.action.aiProviderReordered',
};

function useActionText(): (action: string) => string {
  const t = useT();
  return (action) => {
    const id = ACTION_TEXT[action];
    return id ? t(id) : action;
  };
}

/** An account id, which the console can open; anything else (`email:…`) is shown as it is. */
const ACCOUNT_ID = /^[0-9a-f]{24}$/i;

const FilterGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr));
  gap: 0 1rem;
`;

const ExportLink = styled.a`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  min-height: 2rem;
  padding: 0.125rem 0.625rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  color: var(--kasa-fg);
  font-size: 0.875rem;
  font-weight: 600;
  text-decoration: none;
  &:hover {
    background: var(--kasa-surface-muted);
  }
`;

const EntryFacts = styled.dl`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 1.25rem;
  margin: 0.375rem 0 0;
  font-size: 0.875rem;
  div {
    display: flex;
    gap: 0.375rem;
    min-width: 0;
  }
  dt {
    color: var(--kasa-muted);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** An actor or a target: a link to the person when it is an account, else as it came. */
function Who({ id }: { id: string }) {
  const base = useBase();
  if (!ACCOUNT_ID.test(id)) return <Mono>{id}</Mono>;
  return (
    <Link to={`${base}/people/${id}`}>
      <Mono>{id}</Mono>
    </Link>
  );
}

/** An entry's details (reason, plans, key prefix...) as the API recorded them. */
function detailText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function EntryItem({ entry }: { entry: AuditEntry }) {
  const t = useT();
  const actionText = useActionText();
  const formats = useFormats();
  const details = Object.entries(entry.details).filter(([, value]) => value !== null && value !== undefined);
  return (
    <li data-testid="audit-entry" data-action={entry.action}>
      <Row>
        <strong>{actionText(entry.action)}</strong>
        <Badge>
          <time dateTime={entry.at}>{formats.dateTime(entry.at)}</time>
        </Badge>
      </Row>
      <EntryFacts>
        <div>
          <dt>{t('audit.actor')}</dt>
          <dd data-testid="audit-actor">{entry.actorId ? <Who id={entry.actorId} /> : t('audit.platform')}</dd>
        </div>
        {entry.targetId ? (
          <div>
            <dt>{t('audit.target')}</dt>
            <dd data-testid="audit-target">
              <Who id={entry.targetId} />
            </dd>
          </div>
        ) : null}
        {entry.clientIp ? (
          <div>
            <dt>{t('audit.address')}</dt>
            <dd>
              <Mono>{entry.clientIp}</Mono>
            </dd>
          </div>
        ) : null}
        {entry.requestId ? (
          <div>
            <dt>{t('audit.requestId')}</dt>
            <dd>
              <Mono>{entry.requestId}</Mono>
            </dd>
          </div>
        ) : null}
        {details.map(([name, value]) => (
          <div key={name}>
            <dt>
              <Mono>{name}</Mono>
            </dt>
            <dd>{detailText(value)}</dd>
          </div>
        ))}
      </EntryFacts>
    </li>
  );
}

/** The filters: actor, target, action and a window of days; applied to the address, so a link keeps them. */
function Filters({ current, onApply }: { current: AuditForm; onApply: (form: AuditForm) => void }) {
  const t = useT();
  const actionText = useActionText();
  const id = useId();
  const [form, setForm] = useState(current);
  useEffect(() => setForm(current), [current]);
  const set = (name: keyof AuditForm) => (event: { target: { value: string } }) =>
    setForm((previous) => ({ ...previous, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(form);
  };
  const clear = () => onApply({ actor: '', target: '', action: '', from: '', to: '' });

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`} data-testid="audit-filters">
      <h3 id={`${id}-title`}>{t('audit.filters')}</h3>
      <FilterGrid>
        <FormField>
          <label htmlFor={`${id}-actor`}>{t('audit.actor')}</label>
          <TextInput
            id={`${id}-actor`}
            value={form.actor}
            maxLength={64}
            autoComplete="off"
            aria-describedby={`${id}-actor-hint`}
            onChange={set('actor')}
          />
          <Hint id={`${id}-actor-hint`}>{t('audit.actorHint')}</Hint>
        </FormField>
        <FormField>
          <label htmlFor={`${id}-target`}>{t('audit.target')}</label>
          <TextInput
            id={`${id}-target`}
            value={form.target}
            maxLength={300}
            autoComplete="off"
            aria-describedby={`${id}-target-hint`}
            onChange={set('target')}
          />
          <Hint id={`${id}-target-hint`}>{t('audit.targetHint')}</Hint>
        </FormField>
        <FormField>
          <label htmlFor={`${id}-action`}>{t('audit.actionLabel')}</label>
          <Select id={`${id}-action`} value={form.action} onChange={set('action')}>
            <option value="">{t('audit.allActions')}</option>
            {AUDIT_ACTION_LIST.map((action) => (
              <option key={action} value={action}>
                {actionText(action)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField>
          <label htmlFor={`${id}-from`}>{t('audit.from')}</label>
          <TextInput id={`${id}-from`} type="date" value={form.from} onChange={set('from')} />
        </FormField>
        <FormField>
          <label htmlFor={`${id}-to`}>{t('audit.to')}</label>
          <TextInput id={`${id}-to`} type="date" value={form.to} onChange={set('to')} />
        </FormField>
      </FilterGrid>
      <Hint style={{ marginBottom: '0.75rem' }}>{t('audit.windowHint')}</Hint>
      <Row>
        <Button type="submit">{t('audit.apply')}</Button>
        <Button type="button" variant="ghost" onClick={clear}>
          {t('audit.clear')}
        </Button>
      </Row>
    </form>
  );
}

/**
 * The audit log: who did what to whom, when and from where, newest first and a page at a time, under filters kept in
 * the address; Export CSV saves the same filters' entries (up to 10,000) as a file.
 */
export default function AuditTab() {
  const t = useT();
  const formats = useFormats();
  const describe = useDescribeFailure();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const form = useMemo(() => formFromSearch(new URLSearchParams(search)), [search]);
  const asked = useMemo(() => filtersFromForm(form), [form]);
  const filters = 'filters' in asked ? asked.filters : {};
  const audit = useAudit(filters, 'filters' in asked);
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  const shown = audit.data?.pages[0];

  const exportCsv = (event: MouseEvent<HTMLAnchorElement>) => {
    // The file needs the operator's token, which a plain link does not carry: it is read here and saved.
    event.preventDefault();
    setExportError(null);
    setExporting(true);
    downloadAuditCsv(filters, csvFileName(form))
      .catch((error: unknown) => setExportError(t('audit.exportFailed', { reason: describe('load', error) })))
      .finally(() => setExporting(false));
  };

  let body;
  if ('problem' in asked)
    body = <ActionError message={t(asked.problem === 'range' ? 'audit.problem.range' : 'audit.problem.window')} />;
  else if (audit.isPending) body = <Loading>{t('audit.loading')}</Loading>;
  else if (audit.isError && !audit.data)
    body = (
      <LoadError
        message={t('audit.loadFailed', { reason: describe('load', audit.error) })}
        onRetry={() => void audit.refetch()}
      />
    );
  else if (entries.length === 0) body = <Empty testId="audit-empty">{t('audit.empty')}</Empty>;
  else
    body = (
      <>
        <ItemList data-testid="audit-entries">
          {entries.map((entry) => (
            <EntryItem key={entry.id} entry={entry} />
          ))}
        </ItemList>
        {audit.isFetchNextPageError ? (
          <LoadError
            message={t('audit.loadFailed', { reason: describe('load', audit.error) })}
            onRetry={() => void audit.fetchNextPage()}
          />
        ) : null}
        {audit.hasNextPage ? (
          <Button
            type="button"
            variant="secondary"
            compact
            disabled={audit.isFetchingNextPage}
            onClick={() => void audit.fetchNextPage()}
          >
            {audit.isFetchingNextPage ? t('common.loading') : t('common.showMore')}
          </Button>
        ) : null}
      </>
    );

  return (
    <Stack>
      <Panel>
        <Filters current={form} onApply={(next) => setSearchParams(searchFromForm(next))} />
      </Panel>
      <Panel aria-labelledby="admin-audit-title">
        <Row style={{ justifyContent: 'space-between', marginBottom: '0.75rem' }}>
          <h2 id="admin-audit-title" style={{ margin: 0 }}>
            {t('audit.title')}
          </h2>
          <Row>
            <Button
              type="button"
              variant="ghost"
              compact
              disabled={audit.isFetching}
              onClick={() => void audit.refetch()}
            >
              {audit.isFetching && !audit.isPending ? t('common.refreshing') : t('common.refresh')}
            </Button>
            {'filters' in asked ? (
              <ExportLink
                href={auditUrl(filters, { csv: true })}
                download={csvFileName(form)}
                data-testid="audit-export"
                aria-busy={exporting || undefined}
                onClick={exportCsv}
              >
                <Download {...ICON} />
                {exporting ? t('audit.exporting') : t('audit.export')}
              </ExportLink>
            ) : null}
          </Row>
        </Row>
        <Stack>
          {shown ? (
            <Muted data-testid="audit-window">
              {t('audit.window', { from: formats.dateTime(shown.from), to: formats.dateTime(shown.to) })}
            </Muted>
          ) : null}
          {exportError ? <ActionError message={exportError} /> : null}
          {body}
        </Stack>
      </Panel>
    </Stack>
  );
}
