import styled from '@emotion/styled';
import { css, keyframes } from '@emotion/react';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AiProviderKindInfo, AiProviderTestResult, AiProviderView } from '@kasa/contracts';
import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { isApiError } from '@kasa/api-client';
import { SectionCatalogue, useMessages, useTranslator, type Translator } from '@kasa/i18n';
import { Actions, Button, ButtonLink, Card, InlineError, Muted, Select, SkeletonBar, TextInput } from '@kasa/ui';
import { AI_SETUP_LOADERS } from '../i18n/aiSetup/catalogues';
import type english from '../i18n/aiSetup/en.json';
import {
  useCancelLocalModel,
  useCreateProvider,
  useDiscovery,
  useDownloadLocalModel,
  useLocalModel,
  useProviderList,
  useProviderTest,
} from './aiSetupApi';
import {
  asksBaseUrl,
  formatBytes,
  intlLocales,
  keyFormProblems,
  keyFormRequests,
  keyKinds,
  keyNeed,
  kindLabel,
  percentDone,
  uniqueName,
  type KeyForm,
  type KeyFormProblem,
} from './connectAi';

type AiSetupId = keyof typeof english;
type Translate = Translator<AiSetupId>;
const useAiT = (): Translate => useTranslator<AiSetupId>();

/** A failure in words: a 404 means the role is gone; the rest as the web app words failures. */
function useDescribe() {
  const t = useAiT();
  return (error: unknown) =>
    isApiError(error) && error.status === 404 ? t('ai.notOperator') : describeFailureIn(t, error);
}

function useFormats() {
  const { locale } = useMessages();
  return useMemo(() => {
    const locales = intlLocales(locale);
    const count = new Intl.NumberFormat(locales);
    const percent = new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 0 });
    return {
      count: (value: number) => count.format(value),
      percent: (ratio: number) => percent.format(ratio),
      bytes: (bytes: number) => formatBytes(bytes, locales),
    };
  }, [locale]);
}

const Step = styled(Card, { shouldForwardProp: (prop) => prop !== 'standalone' })<{ standalone: boolean }>`
  margin-top: ${({ standalone }) => (standalone ? '0' : '1.5rem')};
  display: flex;
  flex-direction: column;
  gap: 1rem;
  h1,
  h2 {
    margin: 0;
    font-size: 1.375rem;
  }
  p {
    margin: 0;
  }
`;

const Choices = styled.fieldset`
  border: 0;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  legend {
    padding: 0;
    margin-bottom: 0.5rem;
    font-weight: 700;
  }
`;

const ChoiceLabel = styled.label`
  display: flex;
  align-items: flex-start;
  gap: 0.625rem;
  padding: 0.625rem 0.75rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  cursor: pointer;
  &:has(input:checked) {
    border-color: var(--kasa-primary);
    box-shadow: inset 0 0 0 1px var(--kasa-primary);
  }
  input {
    margin: 0.25rem 0 0;
    width: 1.125rem;
    height: 1.125rem;
    flex: none;
  }
  strong {
    display: block;
  }
  span span {
    color: var(--kasa-muted);
    font-size: 0.875rem;
  }
`;

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  label {
    font-weight: 600;
  }
  select {
    width: 100%;
  }
`;

const Hint = styled.p`
  color: var(--kasa-muted);
  font-size: 0.875rem;
`;

const Problem = styled.p`
  color: var(--kasa-danger);
  font-size: 0.875rem;
  font-weight: 600;
`;

const Outcome = styled.div<{ tone: 'ok' | 'failed' }>`
  padding: 0.5rem 0.75rem;
  border: 1px solid ${({ tone }) => (tone === 'ok' ? 'var(--kasa-success)' : 'var(--kasa-danger)')};
  border-radius: var(--kasa-radius);
  overflow-wrap: anywhere;
  p + p {
    margin-top: 0.25rem;
  }
`;

const Done = styled.div`
  padding: 0.75rem;
  border: 1px solid var(--kasa-success);
  border-radius: var(--kasa-radius);
  p {
    font-weight: 600;
  }
`;

const slide = keyframes`
  from { margin-inline-start: -30%; }
  to { margin-inline-start: 100%; }
`;

const Track = styled.div`
  height: 0.75rem;
  overflow: hidden;
  border: 1px solid var(--kasa-muted);
  border-radius: 999px;
  background: var(--kasa-surface);
`;

const Fill = styled('div', { shouldForwardProp: (prop) => prop !== 'known' })<{ known: boolean }>`
  height: 100%;
  border-radius: 999px;
  background: var(--kasa-primary);
  transition: width 0.4s ease;
  ${({ known }) =>
    known
      ? null
      : css`
          width: 30%;
          animation: ${slide} 1.6s linear infinite;
        `}
  @media (prefers-reduced-motion: reduce) {
    transition: none;
    animation: none;
  }
`;

/** A labelled field with its hint and problem, tied together for assistive technology. */
function LabelledField({
  id,
  label,
  hint,
  problem,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  problem?: string;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      {children(describedBy || undefined)}
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {problem ? <Problem id={`${id}-problem`}>{problem}</Problem> : null}
    </Field>
  );
}

/** What a connection test found (announced politely), or why it could not run. */
function TestOutcome({ result, failure }: { result?: AiProviderTestResult; failure?: string }) {
  const t = useAiT();
  const formats = useFormats();
  if (!result && !failure) return null;
  if (result?.ok)
    return (
      <Outcome tone="ok" role="status" data-testid="ai-test-result" data-state="ok">
        <p>
          <strong>{t('ai.testOk', { model: result.model, ms: formats.count(result.latencyMs) })}</strong>
        </p>
        {result.sample ? <p>{t('ai.testSample', { sample: result.sample })}</p> : null}
      </Outcome>
    );
  return (
    <Outcome tone="failed" role="alert" data-testid="ai-test-result" data-state="failed">
      <p>
        <strong>
          {result
            ? t('ai.testFailed', { model: result.model, reason: result.error ?? t('failure.unknown') })
            : t('ai.testNotRun', { reason: failure ?? '' })}
        </strong>
      </p>
      {result ? <p>{t('ai.testFailedHint')}</p> : null}
    </Outcome>
  );
}

const PROBLEM_TEXT: Record<KeyFormProblem, AiSetupId> = {
  key: 'ai.problem.key',
  baseURL: 'ai.problem.baseURL',
  baseURLRequired: 'ai.problem.baseURLRequired',
  model: 'ai.problem.model',
};

/** Paste a key: pick the provider, paste its key (and its address, for a server of one's own), test, then save. */
function KeyChoice({
  list,
  onConnected,
}: {
  list: { kinds: AiProviderKindInfo[]; providers: AiProviderView[]; keysStorable: boolean };
  onConnected: (name: string) => void;
}) {
  const t = useAiT();
  const describe = useDescribe();
  const id = useId();
  const kinds = keyKinds(list.kinds);
  const first = kinds.find((info) => info.kind === 'openai') ?? kinds[0];
  const [form, setForm] = useState<KeyForm>(() => ({
    kind: first?.kind ?? 'openai',
    apiKey: '',
    baseURL: first?.defaultBaseURL ?? '',
    model: first?.defaultModel ?? '',
  }));
  const [checked, setChecked] = useState(false);
  const test = useProviderTest();
  const create = useCreateProvider();
  const info = kinds.find((entry) => entry.kind === form.kind) ?? first;
  if (!info) return null;
  const need = keyNeed(info);
  const problems = checked ? keyFormProblems(form, info) : {};
  const keyBlocked = !list.keysStorable && (need === 'required' || form.apiKey.trim() !== '');
  const passed = test.data?.ok === true;
  const taken = list.providers.map((provider) => provider.name);

  const change = (next: Partial<KeyForm>) => {
    setForm((current) => ({ ...current, ...next }));
    // A test belongs to the settings it tried: saving needs a test of what is typed now.
    test.reset();
    create.reset();
  };

  const runTest = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(keyFormProblems(form, info)).length > 0) return;
    test.mutate(keyFormRequests(form, info, taken).test);
  };

  const save = () =>
    create.mutate(keyFormRequests(form, info, taken).create, { onSuccess: (saved) => onConnected(saved.name) });

  const problemText = (field: keyof KeyForm) => {
    const problem = problems[field];
    return problem ? t(PROBLEM_TEXT[problem]) : undefined;
  };

  return (
    <form onSubmit={runTest} noValidate data-testid="ai-key-form" style={{ display: 'grid', gap: '0.875rem' }}>
      <LabelledField id={`${id}-kind`} label={t('ai.kind')}>
        {(describedBy) => (
          <Select
            id={`${id}-kind`}
            value={form.kind}
            aria-describedby={describedBy}
            onChange={(event) => {
              const to = kinds.find((entry) => entry.kind === event.target.value) ?? info;
              const untouched = (value: string, fallback?: string) => !value.trim() || value === (fallback ?? '');
              change({
                kind: to.kind,
                model: untouched(form.model, info.defaultModel) ? to.defaultModel : form.model,
                baseURL: untouched(form.baseURL, info.defaultBaseURL) ? (to.defaultBaseURL ?? '') : form.baseURL,
              });
            }}
          >
            {kinds.map((entry) => (
              <option key={entry.kind} value={entry.kind}>
                {kindLabel(entry.kind, t('ai.compatible'))}
              </option>
            ))}
          </Select>
        )}
      </LabelledField>
      {need === 'none' ? null : (
        <LabelledField
          id={`${id}-key`}
          label={need === 'optional' ? t('ai.keyOptional') : t('ai.key')}
          hint={t('ai.keyHint')}
          problem={problemText('apiKey')}
        >
          {(describedBy) => (
            <TextInput
              id={`${id}-key`}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              dir="ltr"
              maxLength={1000}
              value={form.apiKey}
              aria-invalid={problems.apiKey ? true : undefined}
              aria-describedby={describedBy}
              onChange={(event) => change({ apiKey: event.target.value })}
            />
          )}
        </LabelledField>
      )}
      {asksBaseUrl(info) ? (
        <LabelledField id={`${id}-url`} label={t('ai.baseURL')} problem={problemText('baseURL')}>
          {(describedBy) => (
            <TextInput
              id={`${id}-url`}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              dir="ltr"
              maxLength={500}
              value={form.baseURL}
              aria-invalid={problems.baseURL ? true : undefined}
              aria-describedby={describedBy}
              onChange={(event) => change({ baseURL: event.target.value })}
            />
          )}
        </LabelledField>
      ) : null}
      <LabelledField
        id={`${id}-model`}
        label={t('ai.model')}
        hint={info.defaultModel ? t('ai.modelHint', { model: info.defaultModel }) : undefined}
        problem={problemText('model')}
      >
        {(describedBy) => (
          <TextInput
            id={`${id}-model`}
            autoComplete="off"
            spellCheck={false}
            dir="ltr"
            maxLength={200}
            value={form.model}
            aria-invalid={problems.model ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => change({ model: event.target.value })}
          />
        )}
      </LabelledField>
      <TestOutcome result={test.data} failure={test.isError ? describe(test.error) : undefined} />
      {keyBlocked ? (
        <Hint id={`${id}-blocked`} data-testid="ai-keys-not-storable">
          {t('ai.keysNotStorable')}
        </Hint>
      ) : passed ? null : (
        <Hint id={`${id}-blocked`}>{t('ai.saveHint')}</Hint>
      )}
      {create.isError ? (
        <InlineError role="alert">
          <p>{t('ai.saveFailed', { reason: describe(create.error) })}</p>
        </InlineError>
      ) : null}
      <Actions style={{ marginTop: 0 }}>
        <Button type="submit" variant="secondary" disabled={test.isPending}>
          {test.isPending ? t('ai.testing') : t('ai.test')}
        </Button>
        <Button
          type="button"
          disabled={!passed || keyBlocked || create.isPending}
          aria-describedby={!passed || keyBlocked ? `${id}-blocked` : undefined}
          onClick={save}
        >
          {create.isPending ? t('ai.saving') : t('ai.save')}
        </Button>
      </Actions>
    </form>
  );
}

/** Use the Ollama found on this machine: pick one of its models; it is tested, then saved. */
function OllamaChoice({
  baseURL,
  models,
  taken,
  onConnected,
}: {
  baseURL: string;
  models: string[];
  taken: string[];
  onConnected: (name: string) => void;
}) {
  const t = useAiT();
  const describe = useDescribe();
  const id = useId();
  const [model, setModel] = useState(models[0] ?? '');
  const test = useProviderTest();
  const create = useCreateProvider();
  const busy = test.isPending || create.isPending;

  const use = () => {
    create.reset();
    test.mutate(
      { kind: 'ollama', baseURL, model },
      {
        onSuccess: (result) => {
          if (result.ok)
            create.mutate(
              { name: uniqueName('ollama', taken), kind: 'ollama', baseURL, model },
              { onSuccess: (saved) => onConnected(saved.name) },
            );
        },
      },
    );
  };

  return (
    <div style={{ display: 'grid', gap: '0.875rem' }} data-testid="ai-ollama">
      {models.length === 0 ? (
        <Muted>{t('ai.ollama.noModels')}</Muted>
      ) : (
        <LabelledField id={`${id}-model`} label={t('ai.model')}>
          {() => (
            <Select id={`${id}-model`} value={model} onChange={(event) => setModel(event.target.value)}>
              {models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
          )}
        </LabelledField>
      )}
      <TestOutcome result={test.data} failure={test.isError ? describe(test.error) : undefined} />
      {create.isError ? (
        <InlineError role="alert">
          <p>{t('ai.saveFailed', { reason: describe(create.error) })}</p>
        </InlineError>
      ) : null}
      <Actions style={{ marginTop: 0 }}>
        <Button type="button" disabled={busy || !model} onClick={use}>
          {test.isPending ? t('ai.testing') : create.isPending ? t('ai.saving') : t('ai.ollama.use')}
        </Button>
      </Actions>
    </div>
  );
}

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** Download the local model: its state, a progress bar while it downloads (asked every second), then Use it. */
function LocalChoice({ taken, onConnected }: { taken: string[]; onConnected: (name: string) => void }) {
  const t = useAiT();
  const formats = useFormats();
  const describe = useDescribe();
  const id = useId();
  const status = useLocalModel(true);
  const download = useDownloadLocalModel();
  const cancel = useCancelLocalModel();
  const create = useCreateProvider();
  const [typed, setTyped] = useState<string | null>(null);
  const [badUrl, setBadUrl] = useState(false);

  if (status.isPending)
    return (
      <div role="status" aria-busy="true">
        <SkeletonBar width="70%" />
      </div>
    );
  if (status.isError && !status.data)
    return (
      <InlineError role="alert">
        <p>{t('ai.local.loadFailed', { reason: describe(status.error) })}</p>
        <Button type="button" variant="secondary" compact onClick={() => void status.refetch()}>
          {t('ai.retry')}
        </Button>
      </InlineError>
    );

  const model = status.data;
  const percent = percentDone(model);
  const file = model.file ?? model.url.split('/').pop() ?? model.url;
  const progress =
    model.totalBytes && percent !== null
      ? t('ai.local.progress', {
          done: formats.bytes(model.bytes),
          total: formats.bytes(model.totalBytes),
          percent: formats.percent(percent / 100),
        })
      : t('ai.local.progressUnknown', { done: formats.bytes(model.bytes) });

  const start = (event: FormEvent) => {
    event.preventDefault();
    const url = (typed ?? model.url).trim();
    if (url && !isHttpUrl(url)) {
      setBadUrl(true);
      return;
    }
    setBadUrl(false);
    download.mutate(url && url !== model.url ? url : undefined);
  };

  let body;
  if (model.state === 'downloading')
    body = (
      <>
        <p>{t('ai.local.downloading', { file })}</p>
        <Track
          role="progressbar"
          aria-label={t('ai.local.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={progress}
          data-testid="ai-local-progress"
        >
          <Fill known={percent !== null} style={percent === null ? undefined : { width: `${percent}%` }} />
        </Track>
        <Muted>{progress}</Muted>
        <Actions style={{ marginTop: 0 }}>
          <Button type="button" variant="secondary" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            {t('ai.local.cancel')}
          </Button>
        </Actions>
      </>
    );
  else if (model.state === 'ready')
    body = (
      <>
        <p>{t('ai.local.ready', { file, size: formats.bytes(model.totalBytes ?? model.bytes) })}</p>
        <Actions style={{ marginTop: 0 }}>
          <Button
            type="button"
            disabled={create.isPending || !model.file}
            onClick={() =>
              create.mutate(
                { name: uniqueName('local', taken), kind: 'local', model: model.file! },
                { onSuccess: (saved) => onConnected(saved.name) },
              )
            }
          >
            {create.isPending ? t('ai.saving') : t('ai.local.use')}
          </Button>
        </Actions>
      </>
    );
  else
    body = (
      <form onSubmit={start} noValidate style={{ display: 'grid', gap: '0.875rem' }}>
        {model.state === 'failed' ? (
          <InlineError role="alert">
            <p>{t('ai.local.failed', { reason: model.error ?? t('failure.unknown') })}</p>
          </InlineError>
        ) : (
          <Muted>{t('ai.local.absent')}</Muted>
        )}
        <LabelledField
          id={`${id}-url`}
          label={t('ai.local.url')}
          hint={t('ai.local.urlHint')}
          problem={badUrl ? t('ai.problem.baseURL') : undefined}
        >
          {(describedBy) => (
            <TextInput
              id={`${id}-url`}
              type="url"
              inputMode="url"
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
              maxLength={500}
              value={typed ?? model.url}
              aria-invalid={badUrl || undefined}
              aria-describedby={describedBy}
              onChange={(event) => setTyped(event.target.value)}
            />
          )}
        </LabelledField>
        <Actions style={{ marginTop: 0 }}>
          <Button type="submit" disabled={download.isPending}>
            {model.state === 'failed' ? t('ai.local.resume') : t('ai.local.download')}
          </Button>
        </Actions>
      </form>
    );

  const failure = download.error ?? cancel.error ?? create.error;
  return (
    <div style={{ display: 'grid', gap: '0.875rem' }} data-testid="ai-local">
      {body}
      {failure ? (
        <InlineError role="alert">
          <p>
            {isApiError(failure) && failure.status === 409
              ? t('ai.local.running')
              : t('ai.saveFailed', { reason: describe(failure) })}
          </p>
        </InlineError>
      ) : null}
    </div>
  );
}

type Choice = 'key' | 'ollama' | 'local';

function ConnectAi({ standalone }: { standalone: boolean }) {
  const t = useAiT();
  const describe = useDescribe();
  const id = useId();
  const list = useProviderList();
  const discovery = useDiscovery();
  const localModel = useLocalModel(true);
  // A chat service without the local model answers its address 404: the choice is not offered.
  const localOffered = !(isApiError(localModel.error) && localModel.error.status === 404);
  const [choice, setChoice] = useState<Choice>('key');
  const [connected, setConnected] = useState<string | null>(null);
  const ollama = discovery.data?.ollama;

  let body;
  if (list.isPending)
    body = (
      <div role="status" aria-busy="true" data-testid="ai-loading" style={{ display: 'grid', gap: '0.625rem' }}>
        <Muted>{t('ai.loading')}</Muted>
        <SkeletonBar width="80%" />
        <SkeletonBar width="60%" />
      </div>
    );
  else if (list.isError && !list.data)
    body = (
      <InlineError role="alert">
        <p>{t('ai.loadFailed', { reason: describe(list.error) })}</p>
        <Button type="button" variant="secondary" compact onClick={() => void list.refetch()}>
          {t('ai.retry')}
        </Button>
      </InlineError>
    );
  else if (connected)
    body = (
      <Done role="status" data-testid="ai-connected">
        <p>{t('ai.saved', { name: connected })}</p>
      </Done>
    );
  else {
    const taken = list.data.providers.map((provider) => provider.name);
    const choices: Array<{ key: Choice; label: AiSetupId; hint: string }> = [
      { key: 'key', label: 'ai.choice.key', hint: t('ai.choice.keyHint') },
      ...(ollama?.found
        ? [
            {
              key: 'ollama' as const,
              label: 'ai.choice.ollama' as const,
              hint: t('ai.choice.ollamaHint', { url: ollama.baseURL, count: ollama.models.length }),
            },
          ]
        : []),
      ...(localOffered
        ? [{ key: 'local' as const, label: 'ai.choice.local' as const, hint: t('ai.choice.localHint') }]
        : []),
    ];
    const picked = choices.some((entry) => entry.key === choice) ? choice : 'key';
    body = (
      <>
        {list.data.providers.length > 0 ? (
          <p data-testid="ai-chain">
            {t('ai.connected', { names: list.data.providers.map((provider) => provider.name).join(', ') })}
          </p>
        ) : null}
        <Choices>
          <legend>{t('ai.choices')}</legend>
          {choices.map((entry) => (
            <ChoiceLabel key={entry.key}>
              <input
                type="radio"
                name={`${id}-choice`}
                value={entry.key}
                checked={picked === entry.key}
                aria-describedby={`${id}-${entry.key}-hint`}
                onChange={() => setChoice(entry.key)}
              />
              <span>
                <strong>{t(entry.label)}</strong>
                <span id={`${id}-${entry.key}-hint`}>{entry.hint}</span>
              </span>
            </ChoiceLabel>
          ))}
        </Choices>
        {picked === 'key' ? <KeyChoice list={list.data} onConnected={setConnected} /> : null}
        {picked === 'ollama' && ollama ? (
          <OllamaChoice baseURL={ollama.baseURL} models={ollama.models} taken={taken} onConnected={setConnected} />
        ) : null}
        {picked === 'local' ? <LocalChoice taken={taken} onConnected={setConnected} /> : null}
      </>
    );
  }

  return (
    <Step standalone={standalone} aria-labelledby={`${id}-title`} data-testid="connect-ai">
      {standalone ? <h1 id={`${id}-title`}>{t('ai.title')}</h1> : <h2 id={`${id}-title`}>{t('ai.title')}</h2>}
      <Muted>{t('ai.intro')}</Muted>
      {body}
      <Actions style={{ marginTop: 0 }}>
        {connected ? (
          <ButtonLink to="/chat">{t('ai.toChat')}</ButtonLink>
        ) : (
          <ButtonLink to="/chat" variant="ghost">
            {t('ai.skip')}
          </ButtonLink>
        )}
      </Actions>
      <Muted>
        <Link to="/admin/providers">{t('ai.console')}</Link>
      </Muted>
    </Step>
  );
}

/**
 * The setup page's "Connect AI" step, for an operator (its own chunk, with its messages): paste a provider's key
 * (tested before it is saved), use a local Ollama when one is found, or download the local model; Skip for now goes
 * to the chat. It works again at any time from the operator's "Set up AI" link (/setup?step=ai), then `standalone`:
 * the page's only card, with the page's heading.
 */
export default function ConnectAiStep({ standalone = false }: { standalone?: boolean }) {
  return (
    <SectionCatalogue loaders={AI_SETUP_LOADERS}>
      <ConnectAi standalone={standalone} />
    </SectionCatalogue>
  );
}
