import { useId, useState, type FormEvent } from 'react';
import type { AiProviderKindInfo, AiProviderList } from '@kasa/contracts';
import { Button, Select } from '@kasa/ui';
import {
  baseUrlPlace,
  createRequest,
  keyBlocked,
  keyNeed,
  kindName,
  newDraft,
  problemsOf,
  testRequest,
  uniqueName,
  withKind,
  withoutMoreSettings,
  type DraftField,
  type DraftProblem,
  type ProviderDraft,
} from '@kasa/ui/aiProviders';
import { useCreateProvider, useProviderTest } from './aiSetupApi';
import { useAiT, useDescribe, type AiSetupId } from './aiSetupText';
import { keyKinds } from './keyKinds';
import { Failure, FormRows, Hint, SettingField, SettingTextField, StepActions } from './setupParts';
import { TestOutcome } from './TestOutcome';

/**
 * What the step says of the problems its fields can have: it names the provider itself (the kind's name, numbered
 * when taken), it offers no kind with settings of its own, and its inputs' lengths keep the other problems away.
 */
const PROBLEM_TEXT: Partial<Record<DraftProblem, AiSetupId>> = {
  keyRequired: 'ai.problem.key',
  baseURL: 'ai.problem.baseURL',
  baseURLRequired: 'ai.problem.baseURLRequired',
  model: 'ai.problem.model',
};

interface KeyFormProps {
  kinds: AiProviderKindInfo[];
  first: AiProviderKindInfo;
  list: AiProviderList;
  onConnected: (name: string) => void;
}

/** Paste a key: pick the provider, paste its key (and its address, for a server of one's own), test, then save. */
export function KeyChoice({ list, onConnected }: { list: AiProviderList; onConnected: (name: string) => void }) {
  const kinds = keyKinds(list.kinds);
  const first = kinds.find((info) => info.kind === 'openai') ?? kinds[0];
  return first ? <KeyForm kinds={kinds} first={first} list={list} onConnected={onConnected} /> : null;
}

function KeyForm({ kinds, first, list, onConnected }: KeyFormProps) {
  const t = useAiT();
  const describe = useDescribe();
  const id = useId();
  const taken = list.providers.map((provider) => provider.name);
  const [draft, setDraft] = useState<ProviderDraft>(() => newDraft(first, taken));
  const [checked, setChecked] = useState(false);
  const test = useProviderTest();
  const create = useCreateProvider();
  const info = kinds.find((entry) => entry.kind === draft.kind) ?? first;
  const need = keyNeed(info);
  // What the step sends: its fields, under a free name.
  const sent = { ...withoutMoreSettings(draft, info), name: uniqueName(draft.kind, taken) };
  const problems = problemsOf(sent, info, { mode: 'create', taken });
  const blocked = keyBlocked(sent, info, list.keysStorable, { mode: 'create' });
  const passed = test.data?.ok === true;

  const change = (next: Partial<ProviderDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    // A test belongs to the settings it tried: saving needs a test of what is typed now.
    test.reset();
    create.reset();
  };

  const runTest = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(problems).length > 0) return;
    test.mutate(testRequest(sent, info, { mode: 'create' }).request);
  };

  const save = () => create.mutate(createRequest(sent, info), { onSuccess: (saved) => onConnected(saved.name) });

  const problemText = (field: DraftField) => {
    const problem = checked ? problems[field] : undefined;
    const text = problem && PROBLEM_TEXT[problem];
    return text ? t(text) : undefined;
  };

  return (
    <FormRows onSubmit={runTest} noValidate data-testid="ai-key-form">
      <SettingField id={`${id}-kind`} label={t('ai.kind')}>
        {(control) => (
          <Select
            {...control}
            value={draft.kind}
            onChange={(event) => {
              const to = kinds.find((entry) => entry.kind === event.target.value) ?? info;
              change(withKind(draft, info, to, taken));
            }}
          >
            {kinds.map((entry) => (
              <option key={entry.kind} value={entry.kind}>
                {kindName(entry.kind, t, { 'openai-compatible': 'ai.compatible' })}
              </option>
            ))}
          </Select>
        )}
      </SettingField>
      {need === 'none' ? null : (
        <SettingTextField
          id={`${id}-key`}
          label={need === 'optional' ? t('ai.keyOptional') : t('ai.key')}
          hint={t('ai.keyHint')}
          problem={problemText('apiKey')}
          setting="apiKey"
          value={draft.apiKey}
          onValueChange={(apiKey) => change({ apiKey })}
        />
      )}
      {baseUrlPlace(info) === 'main' ? (
        <SettingTextField
          id={`${id}-url`}
          label={t('ai.baseURL')}
          problem={problemText('baseURL')}
          setting="baseURL"
          value={draft.baseURL}
          onValueChange={(baseURL) => change({ baseURL })}
        />
      ) : null}
      <SettingTextField
        id={`${id}-model`}
        label={t('ai.model')}
        hint={info.defaultModel ? t('ai.modelHint', { model: info.defaultModel }) : undefined}
        problem={problemText('model')}
        setting="model"
        value={draft.model}
        onValueChange={(model) => change({ model })}
      />
      <TestOutcome result={test.data} failure={test.isError ? describe(test.error) : undefined} />
      {blocked ? (
        <Hint id={`${id}-blocked`} data-testid="ai-keys-not-storable">
          {t('ai.keysNotStorable')}
        </Hint>
      ) : passed ? null : (
        <Hint id={`${id}-blocked`}>{t('ai.saveHint')}</Hint>
      )}
      {create.isError ? <Failure message={t('ai.saveFailed', { reason: describe(create.error) })} /> : null}
      <StepActions>
        <Button type="submit" variant="secondary" disabled={test.isPending}>
          {test.isPending ? t('ai.testing') : t('ai.test')}
        </Button>
        <Button
          type="button"
          disabled={!passed || blocked || create.isPending}
          aria-describedby={!passed || blocked ? `${id}-blocked` : undefined}
          onClick={save}
        >
          {create.isPending ? t('ai.saving') : t('ai.save')}
        </Button>
      </StepActions>
    </FormRows>
  );
}
