import styled from '@emotion/styled';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { describeTestFailure, sendTestRequest, type TestResponse } from '../apiTest/sendTestRequest';
import { useOpenApi } from '../api/developerQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import {
  exampleValue,
  fillPath,
  groupByTag,
  listOperations,
  pathParamNames,
  type OperationDoc,
  type OpenApiDocument,
} from '../openapi/operations';
import { Button, InlineError, Muted, Select, TextInput } from '@kasa/ui';
import { Label, TextArea } from '@kasa/ui/widgets';
import { Card, Code, Grid, Row, Spinner } from '../ui/controls';
import { LoadError, Loading } from '../ui/States';

const DEFAULT_OPERATION = 'GET /api/personas';

/** What an API key looks like, as the key field's hint. */
const KEY_PLACEHOLDER = 'ksk_…';

/** Bodies that mean something for the calls the spec documents; the rest start from their schema. */
const SAMPLE_BODIES: Record<string, unknown> = {
  'POST /api/chat/sessions': { personaId: 'kasa', title: 'My first chat' },
  'POST /api/chat/sessions/{sessionId}/messages': { role: 'user', content: 'Akwaaba! What can you do?', type: 'text' },
  'POST /v1/chat/completions': { model: 'kasa', messages: [{ role: 'user', content: 'Akwaaba! What can you do?' }] },
  'POST /api/voice/synthesize': { text: 'Akwaaba! Welcome to Kasa.', language: 'en' },
};

function sampleBody(doc: OpenApiDocument, operation: OperationDoc | undefined): string {
  if (!operation?.body) return '';
  const sample = SAMPLE_BODIES[operation.id] ?? exampleValue(doc, operation.body.schema);
  return JSON.stringify(sample, null, 2);
}

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  margin-bottom: 0.875rem;
`;

const Headers = styled.dl`
  display: grid;
  grid-template-columns: minmax(8rem, auto) 1fr;
  gap: 0.125rem 0.75rem;
  margin: 0;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.8125rem;
  dt {
    color: var(--kasa-muted);
  }
  dd {
    margin: 0;
    word-break: break-all;
  }
`;

function ResponseView({ response }: { response: TestResponse }) {
  const t = usePanelsT();
  const formats = useFormats();
  const status = `${response.status} ${response.statusText}`.trim();
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '0.75rem' }} data-testid="api-test-response">
      <Row>
        <strong data-testid="api-test-status">{status}</strong>
        <Muted as="span" data-testid="api-test-time">
          {t('apiTest.time', { ms: formats.milliseconds(response.timeMs) })}
        </Muted>
      </Row>
      <Code tabIndex={0} aria-label={t('apiTest.responseBody')} data-testid="api-test-body">
        {response.body || t('apiTest.emptyBody')}
      </Code>
      <details>
        <summary>{t('apiTest.headers', { count: response.headers.length })}</summary>
        <Headers>
          {response.headers.map(([name, value]) => (
            <div key={name} style={{ display: 'contents' }}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </Headers>
      </details>
    </div>
  );
}

type Outcome = { kind: 'response'; response: TestResponse } | { kind: 'error'; message: string } | null;

function Tester({ doc }: { doc: OpenApiDocument }) {
  const t = usePanelsT();
  const ids = { endpoint: useId(), key: useId(), body: useId(), query: useId() };
  const operations = useMemo(() => listOperations(doc), [doc]);
  const groups = useMemo(() => groupByTag(operations), [operations]);
  const [operationId, setOperationId] = useState(
    operations.some((op) => op.id === DEFAULT_OPERATION) ? DEFAULT_OPERATION : (operations[0]?.id ?? ''),
  );
  const operation = operations.find((op) => op.id === operationId);
  const [params, setParams] = useState<Record<string, string>>({});
  const [query, setQuery] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [body, setBody] = useState(() => sampleBody(doc, operation));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const names = operation ? pathParamNames(operation.path) : [];
  const missing = names.filter((name) => !params[name]?.trim());

  const choose = (id: string) => {
    setOperationId(id);
    setBody(
      sampleBody(
        doc,
        operations.find((op) => op.id === id),
      ),
    );
    setQuery('');
    setOutcome(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!operation || missing.length) return;
    const search = query.trim().replace(/^\?/, '');
    const url = fillPath(operation.path, params) + (search ? `?${search}` : '');
    setBusy(true);
    try {
      const response = await sendTestRequest({ method: operation.method, url, apiKey, body });
      setOutcome({ kind: 'response', response });
    } catch (error) {
      setOutcome({ kind: 'error', message: describeTestFailure(t, error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Grid min="22rem">
      <Card aria-labelledby="api-test-request">
        <h2 id="api-test-request">{t('apiTest.request')}</h2>
        <form onSubmit={(event) => void onSubmit(event)} aria-labelledby="api-test-request">
          <Field>
            <Label htmlFor={ids.endpoint}>{t('apiTest.endpoint')}</Label>
            <Select id={ids.endpoint} value={operationId} onChange={(event) => choose(event.target.value)}>
              {groups.map(([tag, ops]) => (
                <optgroup key={tag} label={tag || t('docs.untagged')}>
                  {ops.map((op) => (
                    <option key={op.id} value={op.id}>
                      {op.id}
                    </option>
                  ))}
                </optgroup>
              ))}
            </Select>
            {operation ? <Muted>{operation.summary}</Muted> : null}
          </Field>
          {names.map((name) => (
            <Field key={name}>
              <Label htmlFor={`${ids.endpoint}-${name}`}>{t('apiTest.pathParam', { name })}</Label>
              <TextInput
                id={`${ids.endpoint}-${name}`}
                value={params[name] ?? ''}
                required
                onChange={(event) => setParams((current) => ({ ...current, [name]: event.target.value }))}
              />
            </Field>
          ))}
          {operation?.queryParams.length ? (
            <Field>
              <Label htmlFor={ids.query}>{t('apiTest.query')}</Label>
              <TextInput
                id={ids.query}
                value={query}
                placeholder={operation.queryParams.map((p) => `${p.name}=…`).join('&')}
                onChange={(event) => setQuery(event.target.value)}
              />
            </Field>
          ) : null}
          <Field>
            <Label htmlFor={ids.key}>{t('apiTest.apiKey')}</Label>
            <TextInput
              id={ids.key}
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={KEY_PLACEHOLDER}
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
            />
            <Muted>{t('apiTest.keyHint')}</Muted>
          </Field>
          {operation && operation.method !== 'GET' ? (
            <Field>
              <Label htmlFor={ids.body}>{t('apiTest.body')}</Label>
              <TextArea
                id={ids.body}
                value={body}
                spellCheck={false}
                onChange={(event) => setBody(event.target.value)}
              />
            </Field>
          ) : null}
          <Button type="submit" disabled={busy || !operation || missing.length > 0}>
            {busy ? <Spinner aria-hidden="true" /> : null}
            {busy ? t('apiTest.sending') : t('apiTest.send')}
          </Button>
          {missing.length ? <Muted>{t('apiTest.fillIn', { names: missing.join(', ') })}</Muted> : null}
        </form>
      </Card>
      <Card aria-labelledby="api-test-result" aria-busy={busy}>
        <h2 id="api-test-result">{t('apiTest.response')}</h2>
        <div aria-live="polite">
          {outcome === null ? <Muted data-testid="api-test-empty">{t('apiTest.empty')}</Muted> : null}
          {outcome?.kind === 'error' ? (
            <InlineError role="alert" data-testid="api-test-error">
              <p>{outcome.message}</p>
            </InlineError>
          ) : null}
        </div>
        {outcome?.kind === 'response' ? <ResponseView response={outcome.response} /> : null}
      </Card>
    </Grid>
  );
}

/** API Test: pick an operation of the OpenAPI document, give a key and a body, and see the raw answer. */
export default function ApiTestTab() {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const openApi = useOpenApi();
  if (openApi.isPending) return <Loading>{t('apiTest.loading')}</Loading>;
  if (openApi.isError)
    return (
      <LoadError
        message={t('apiTest.failed', { reason: describeFailure(openApi.error) })}
        onRetry={() => void openApi.refetch()}
      />
    );
  return <Tester doc={openApi.data} />;
}
