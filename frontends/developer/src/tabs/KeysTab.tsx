import styled from '@emotion/styled';
import { useId, useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyScope, CreateApiKeyResponse, TeamResponse } from '@kasa/contracts';
import { describeFailure } from '@kasa/api-client';
import { useApiKeys, useCreateApiKey, useMyTeam, useRevokeApiKey } from '../api/developerQueries';
import { formatTime } from '../status/serviceState';
import { canManageTeam, canRevokeKey } from '../team/teamAccess';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Badge, Button, Card, Code, InlineError, Label, Muted, Row, Select, TextInput } from '../ui/controls';
import { CopyButton } from '../ui/CopyButton';
import { Empty, LoadError, Loading } from '../ui/States';

// The scopes of @kasa/contracts' ApiKeyScope, listed here so that zod stays out of the browser bundle.
const API_KEY_SCOPES: readonly ApiKeyScope[] = ['chat', 'voice', 'analytics'];

const SCOPE_TEXT: Record<ApiKeyScope, string> = {
  chat: 'chat — personas, chat sessions, /v1 completions',
  voice: 'voice — speech, translation, video',
  analytics: 'analytics — status and usage figures',
};

const EXPIRY_CHOICES = [
  { value: '', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 365 days' },
];

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
const STATE_TEXT: Record<KeyState, string> = { active: 'Active', revoked: 'Revoked', expired: 'Expired' };

function CreateKeyForm({
  team,
  onCreated,
}: {
  /** The caller's team when they may create its keys (owner or admin), else null. */
  team: TeamResponse['team'] | null;
  onCreated: (created: CreateApiKeyResponse) => void;
}) {
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
    if (!name.trim()) return setProblem('Give the key a name, e.g. the app that will use it.');
    if (scopes.length === 0) return setProblem('Choose at least one scope.');
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

  const error = problem ?? (create.isError ? `Could not create the key: ${describeFailure(create.error)}` : null);
  return (
    <Card aria-labelledby="create-key-title">
      <h2 id="create-key-title">Generate New API Key</h2>
      <form onSubmit={onSubmit} aria-labelledby="create-key-title" noValidate>
        <div style={{ marginBottom: '1rem' }}>
          <Label htmlFor={ids.name}>Name</Label>
          <TextInput
            id={ids.name}
            value={name}
            maxLength={60}
            placeholder="e.g. My weather bot"
            onChange={(event) => setName(event.target.value)}
            disabled={create.isPending}
          />
        </div>
        <div style={{ marginBottom: '1rem' }}>
          <Label htmlFor={ids.expiry}>Expires</Label>
          <Select
            id={ids.expiry}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            disabled={create.isPending}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
        <Fieldset disabled={create.isPending}>
          <legend>Scopes</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={scopes.includes(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
              />
              {SCOPE_TEXT[scope]}
            </label>
          ))}
        </Fieldset>
        {team ? (
          <Fieldset disabled={create.isPending}>
            <legend>Owner</legend>
            <label>
              <input type="checkbox" checked={forTeam} onChange={(event) => setForTeam(event.target.checked)} />
              {`Team key (shared with ${team.name})`}
            </label>
            <Muted style={{ fontSize: '0.875rem' }}>
              Every member of the team can see and use it, its calls count on the team’s quota, and only the team’s
              owner and admins can revoke it.
            </Muted>
          </Fieldset>
        ) : null}
        {error ? (
          <InlineError role="alert" style={{ marginBottom: '1rem' }}>
            <p>{error}</p>
          </InlineError>
        ) : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Generating…' : 'Generate New API Key'}
        </Button>
      </form>
    </Card>
  );
}

/** The new key, shown this once: Kasa keeps only a hash, so closing this panel loses it for good. */
function NewSecret({ created, onDone }: { created: CreateApiKeyResponse; onDone: () => void }) {
  return (
    <Secret aria-labelledby="new-key-title" data-testid="new-key">
      <h2 id="new-key-title">{`Your new key “${created.key.name}”`}</h2>
      <p style={{ marginTop: 0 }}>
        <strong>Copy it now: you will not see it again.</strong> Kasa stores only a fingerprint of it. Keep it on your
        servers, never in a web page or an app people can download.
      </p>
      <Code tabIndex={0} data-testid="new-key-secret" aria-label="The new API key">
        {created.secret}
      </Code>
      <Row style={{ marginTop: '0.75rem' }}>
        <CopyButton text={created.secret} label="Copy key" variant="primary" />
        <Button type="button" variant="secondary" compact onClick={onDone}>
          I have copied it
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
  const state = keyState(apiKey);
  return (
    <li data-testid="api-key" data-key-id={apiKey.id} data-state={state}>
      <Row style={{ justifyContent: 'space-between' }}>
        <Row>
          <strong>{apiKey.name}</strong>
          <Badge>{STATE_TEXT[state]}</Badge>
          {apiKey.teamId ? (
            <Badge data-testid="team-key-badge" title="Shared with your team">
              Team
            </Badge>
          ) : null}
        </Row>
        {state === 'active' && mayRevoke ? (
          <Button
            type="button"
            variant="danger"
            compact
            onClick={() => onRevoke(apiKey)}
            aria-label={`Revoke “${apiKey.name}”`}
          >
            Revoke
          </Button>
        ) : null}
      </Row>
      <dl>
        <div>
          <dt>Key</dt>
          <dd>
            <code data-testid="masked-key">{apiKey.maskedKey}</code>
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatTime(apiKey.createdAt)}</dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{formatTime(apiKey.lastUsedAt)}</dd>
        </div>
        <div>
          <dt>{state === 'revoked' ? 'Revoked' : 'Expires'}</dt>
          <dd>{state === 'revoked' ? formatTime(apiKey.revokedAt) : formatTime(apiKey.expiresAt, 'never')}</dd>
        </div>
        <div>
          <dt>Scopes</dt>
          <dd>{apiKey.scopes.join(', ')}</dd>
        </div>
      </dl>
    </li>
  );
}

/** Keys: create (the full key shown once), list masked, revoke after a confirmation. */
export default function KeysTab() {
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
        <h2 id="keys-title">Your API keys</h2>
        <Muted style={{ marginBottom: '0.75rem' }}>
          Use a key as <code>Authorization: Bearer ksk_…</code>. Keys cannot manage keys or your account.
          {plainMember ? ' Keys marked Team are your team’s: its owner and admins revoke them.' : ''}
        </Muted>
        {keys.isPending ? <Loading>Loading your keys…</Loading> : null}
        {keys.isError ? <LoadError what="your keys" error={keys.error} onRetry={() => void keys.refetch()} /> : null}
        {revoke.isError ? (
          <InlineError role="alert" style={{ marginBottom: '0.75rem' }}>
            <p>{`Could not revoke the key: ${describeFailure(revoke.error)} It still works.`}</p>
          </InlineError>
        ) : null}
        {keys.data && keys.data.keys.length === 0 ? (
          <Empty testId="no-keys">You have no API keys yet. Generate one above to call the Kasa API.</Empty>
        ) : null}
        {keys.data?.keys.length ? (
          <KeyList aria-label="API keys">
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
          title={`Revoke “${confirming.name}”?`}
          confirmLabel="Revoke key"
          busy={revoke.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() =>
            revoke.mutate(confirming.id, {
              onSettled: () => setConfirming(null),
            })
          }
        >
          <p>
            {confirming.teamId
              ? 'This is a team key: programs of every team member that use it will be refused (401) within seconds. '
              : 'Programs using this key will be refused (401) within seconds. '}
            This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}
