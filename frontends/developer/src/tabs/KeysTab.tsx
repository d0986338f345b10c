import styled from '@emotion/styled';
import { useId, useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyScope, CreateApiKeyResponse, TeamResponse } from '@kasa/contracts';
import { useApiKeys, useCreateApiKey, useMyTeam, useRevokeApiKey } from '../api/developerQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { richText } from '@kasa/i18n/richText';
import { usePanelsT, type PanelsMessageId } from '../i18n/panels/usePanelsT';
import { canManageTeam, canRevokeKey } from '../team/teamAccess';
import { Button, InlineError, Muted, Select, TextInput } from '@kasa/ui';
import { ConfirmDialog, CopyButton, Label } from '@kasa/ui/widgets';
import { Badge, Card, Code, Row } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';

// The scopes of @kasa/contracts' ApiKeyScope, listed here so that zod stays out of the browser bundle.
const API_KEY_SCOPES: readonly ApiKeyScope[] = ['chat', 'voice', 'analytics'];

/** Each scope's name (an identifier, the same in every language) and what it opens. */
const SCOPE_TEXT: Record<ApiKeyScope, PanelsMessageId> = {
  chat: 'keys.scope.chat',
  voice: 'keys.scope.voice',
  analytics: 'keys.scope.analytics',
};

/** Days until a new key expires; none: it never does. */
const EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** How a key is used, as the list's hint shows it (code, the same in every language). */
const AUTH_HEADER = 'Authorization: Bearer ksk_…';

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 1rem;
`;

const Fieldset = styled.fieldset`
  margin: 0 0 1rem;
  padding: 0;
  border: 0;
  legend {
    font-weight: 600;
    margin-bottom: 0.25rem;
  }
  label {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 2rem;
  }
  input {
    width: 1.125rem;
    height: 1.125rem;
  }
`;

const Secret = styled(Card)`
  border: 2px solid var(--kasa-primary);
`;

const KeyList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  > li {
    padding: 0.75rem 0 0;
    border-top: 1px solid var(--kasa-border);
  }
  dl {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 11rem), 1fr));
    gap: 0.25rem 1rem;
    margin: 0.5rem 0;
  }
  dt {
    color: var(--kasa-muted);
    font-size: 0.8125rem;
  }
  dd {
    margin: 0;
  }
`;

type KeyState = 'active' | 'revoked' | 'expired';
function keyState(key: ApiKey, now = Date.now()): KeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}
const STATE_TEXT: Record<KeyState, PanelsMessageId> = {
  active: 'keys.state.active',
  revoked: 'keys.state.revoked',
  expired: 'keys.state.expired',
};

function CreateKeyForm({
  team,
  onCreated,
}: {
  /** The caller's team when they may create its keys (owner or admin), else null. */
  team: TeamResponse['team'] | null;
  onCreated: (created: CreateApiKeyResponse) => void;
}) {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const ids = { name: useId(), expiry: useId() };
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([...API_KEY_SCOPES]);
  const [forTeam, setForTeam] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const teamKey = forTeam && team !== null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem(t('keys.nameRequired'));
    if (scopes.length === 0) return setProblem(t('keys.scopeRequired'));
    setProblem(null);
    create.mutate(
      {
        name: name.trim(),
        scopes,
        ...(expiry ? { expiresInDays: Number(expiry) } : {}),
        ...(teamKey ? { team: true } : {}),
      },
      {
        onSuccess: (created) => {
          setName('');
          onCreated(created);
        },
      },
    );
  };

  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((current) =>
      on ? API_KEY_SCOPES.filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope),
    );

  const error = problem ?? (create.isError ? t('keys.createFailed', { reason: describeFailure(create.error) }) : null);
  return (
    <Card aria-labelledby="create-key-title">
      <h2 id="create-key-title">{t('keys.create')}</h2>
      <form onSubmit={onSubmit} aria-labelledby="create-key-title" noValidate>
        <div style={{ marginBottom: '1rem' }}>
          <Label htmlFor={ids.name}>{t('keys.name')}</Label>
          <TextInput
            id={ids.name}
            value={name}
            maxLength={60}
            placeholder={t('keys.namePlaceholder')}
            onChange={(event) => setName(event.target.value)}
            disabled={create.isPending}
          />
        </div>
        <div style={{ marginBottom: '1rem' }}>
          <Label htmlFor={ids.expiry}>{t('keys.expires')}</Label>
          <Select
            id={ids.expiry}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            disabled={create.isPending}
          >
            <option value="">{t('keys.expiry.never')}</option>
            {EXPIRY_DAYS.map((days) => (
              <option key={days} value={String(days)}>
                {t('keys.expiry.days', { days })}
              </option>
            ))}
          </Select>
        </div>
        <Fieldset disabled={create.isPending}>
          <legend>{t('keys.scopes')}</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={scopes.includes(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
              />
              {t(SCOPE_TEXT[scope])}
            </label>
          ))}
        </Fieldset>
        {team ? (
          <Fieldset disabled={create.isPending}>
            <legend>{t('keys.owner')}</legend>
            <label>
              <input type="checkbox" checked={forTeam} onChange={(event) => setForTeam(event.target.checked)} />
              {t('keys.teamKey', { team: team.name })}
            </label>
            <Muted style={{ fontSize: '0.875rem' }}>{t('keys.teamKeyHint')}</Muted>
          </Fieldset>
        ) : null}
        {error ? (
          <InlineError role="alert" style={{ marginBottom: '1rem' }}>
            <p>{error}</p>
          </InlineError>
        ) : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t('keys.creating') : t('keys.create')}
        </Button>
      </form>
    </Card>
  );
}

/** The new key, shown this once: Kasa keeps only a hash, so closing this panel loses it for good. */
function NewSecret({ created, onDone }: { created: CreateApiKeyResponse; onDone: () => void }) {
  const t = usePanelsT();
  return (
    <Secret aria-labelledby="new-key-title" data-testid="new-key">
      <h2 id="new-key-title">{t('keys.newTitle', { name: created.key.name })}</h2>
      <p style={{ marginTop: 0 }}>
        {richText((parts) => t('keys.newText', parts), { warning: <strong>{t('keys.newWarning')}</strong> })}
      </p>
      <Code tabIndex={0} data-testid="new-key-secret" aria-label={t('keys.secretLabel')}>
        {created.secret}
      </Code>
      <Row style={{ marginTop: '0.75rem' }}>
        <CopyButton text={created.secret} label={t('keys.copy')} variant="primary" />
        <Button type="button" variant="secondary" compact onClick={onDone}>
          {t('keys.copied')}
        </Button>
      </Row>
    </Secret>
  );
}

function KeyItem({
  apiKey,
  mayRevoke,
  onRevoke,
}: {
  apiKey: ApiKey;
  mayRevoke: boolean;
  onRevoke: (key: ApiKey) => void;
}) {
  const t = usePanelsT();
  const formats = useFormats();
  const state = keyState(apiKey);
  return (
    <li data-testid="api-key" data-key-id={apiKey.id} data-state={state}>
      <Row style={{ justifyContent: 'space-between' }}>
        <Row>
          <strong>{apiKey.name}</strong>
          <Badge>{t(STATE_TEXT[state])}</Badge>
          {apiKey.teamId ? (
            <Badge data-testid="team-key-badge" title={t('keys.teamBadgeTitle')}>
              {t('keys.teamBadge')}
            </Badge>
          ) : null}
        </Row>
        {state === 'active' && mayRevoke ? (
          <Button
            type="button"
            variant="danger"
            compact
            onClick={() => onRevoke(apiKey)}
            aria-label={t('keys.revokeNamed', { name: apiKey.name })}
          >
            {t('keys.revoke')}
          </Button>
        ) : null}
      </Row>
      <dl>
        <div>
          <dt>{t('keys.key')}</dt>
          <dd>
            <code data-testid="masked-key">{apiKey.maskedKey}</code>
          </dd>
        </div>
        <div>
          <dt>{t('keys.created')}</dt>
          <dd>{formats.dateTime(apiKey.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('keys.lastUsed')}</dt>
          <dd>{formats.dateTime(apiKey.lastUsedAt)}</dd>
        </div>
        <div>
          <dt>{state === 'revoked' ? t('keys.revokedAt') : t('keys.expires')}</dt>
          <dd>{formats.dateTime(state === 'revoked' ? apiKey.revokedAt : apiKey.expiresAt)}</dd>
        </div>
        <div>
          <dt>{t('keys.scopes')}</dt>
          <dd>{apiKey.scopes.join(', ')}</dd>
        </div>
      </dl>
    </li>
  );
}

/** Keys: create (the full key shown once), list masked, revoke after a confirmation. */
export default function KeysTab() {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const keys = useApiKeys();
  const team = useMyTeam();
  const revoke = useRevokeApiKey();
  // Team keys can be created by the team's owner and admins; a failed team lookup just leaves the choice out.
  const manageableTeam = team.data && canManageTeam(team.data.role) ? team.data.team : null;
  const plainMember = team.data?.role === 'member';
  const [created, setCreated] = useState<CreateApiKeyResponse | null>(null);
  const [confirming, setConfirming] = useState<ApiKey | null>(null);

  return (
    <Stack>
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      <CreateKeyForm team={manageableTeam} onCreated={setCreated} />
      <Card aria-labelledby="keys-title">
        <h2 id="keys-title">{t('keys.title')}</h2>
        <Muted style={{ marginBottom: '0.75rem' }}>
          {richText((parts) => t(plainMember ? 'keys.usageMember' : 'keys.usage', parts), {
            header: <code>{AUTH_HEADER}</code>,
          })}
        </Muted>
        {keys.isPending ? <Loading>{t('keys.loading')}</Loading> : null}
        {keys.isError ? (
          <LoadError
            message={t('keys.failed', { reason: describeFailure(keys.error) })}
            onRetry={() => void keys.refetch()}
          />
        ) : null}
        {revoke.isError ? (
          <InlineError role="alert" style={{ marginBottom: '0.75rem' }}>
            <p>{t('keys.revokeFailed', { reason: describeFailure(revoke.error) })}</p>
          </InlineError>
        ) : null}
        {keys.data && keys.data.keys.length === 0 ? <Empty testId="no-keys">{t('keys.none')}</Empty> : null}
        {keys.data?.keys.length ? (
          <KeyList aria-label={t('keys.list')}>
            {keys.data.keys.map((apiKey) => (
              <KeyItem
                key={apiKey.id}
                apiKey={apiKey}
                mayRevoke={canRevokeKey(apiKey, team.data)}
                onRevoke={setConfirming}
              />
            ))}
          </KeyList>
        ) : null}
      </Card>
      {confirming ? (
        <ConfirmDialog
          title={t('keys.confirmTitle', { name: confirming.name })}
          confirmLabel={t('keys.confirm')}
          busy={revoke.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() =>
            revoke.mutate(confirming.id, {
              onSettled: () => setConfirming(null),
            })
          }
        >
          <p>{confirming.teamId ? t('keys.confirmTeamText') : t('keys.confirmText')}</p>
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}
