import styled from '@emotion/styled';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { AiProviderKindInfo, AiProviderList, AiProviderView, PersonaId } from '@kasa/contracts';
import { Button, Select } from '@kasa/ui';
import {
  PERSONAS,
  SettingInput,
  baseUrlPlace,
  createRequest,
  draftOf,
  keyBlocked,
  keyNeed,
  newDraft,
  personaName,
  problemsOf,
  testRequest,
  updateRequest,
  withKind,
  type DraftField,
  type DraftProblem,
  type ProviderDraft,
  type VisionChoice,
} from '@kasa/ui/aiProviders';
import { DialogActions, ModalDialog } from '@kasa/ui/widgets';
import { useCreateProvider, useTestProvider, useUpdateProvider } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useT, type MessageId } from '../i18n/useT';
import { FormField, Hint } from '../ui/controls';
import { ActionError } from '../ui/States';
import { kindName } from './kindNames';
import { SettingField, SettingTextField } from './SettingField';
import { TestOutcome } from './TestOutcome';

const More = styled.details`
  margin: 0 0 0.875rem;
  summary {
    cursor: pointer;
    font-weight: 600;
    min-height: 2rem;
    display: flex;
    align-items: center;
  }
  > div {
    margin-top: 0.75rem;
  }
`;

const Personas = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr));
  gap: 0 0.75rem;
`;

const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  min-height: 2rem;
  font-weight: 400 !important;
  input {
    width: 1.125rem;
    height: 1.125rem;
    margin: 0;
  }
`;

/** A kind the chat service did not describe (an older server): no key, no address, no default model. */
const unknownKind = (kind: ProviderDraft['kind']): AiProviderKindInfo => ({
  kind,
  needsKey: false,
  needsBaseURL: false,
  defaultModel: '',
});

/** What the console says of each problem a field can have (`{kind}`: the kind's name). */
const PROBLEM_TEXT: Record<DraftProblem, MessageId> = {
  name: 'providers.problem.name',
  nameOffline: 'providers.problem.nameOffline',
  nameTaken: 'providers.problem.nameTaken',
  keyLong: 'providers.problem.keyLong',
  keyRequired: 'providers.problem.keyRequired',
  baseURL: 'providers.problem.baseURL',
  baseURLRequired: 'providers.problem.baseURLRequired',
  baseURLKeep: 'providers.problem.baseURLKeep',
  model: 'providers.problem.model',
  modelLong: 'providers.problem.modelLong',
  resourceName: 'providers.problem.resourceName',
  region: 'providers.problem.region',
};

/**
 * Adding a provider (`view` absent) or editing one added in the console: kind, name, key, address, model, persona
 * models and whether it sees images; Test connection tries what the form says (nothing saved); Save sends it. The key
 * is a password field, empty when editing (an empty field keeps the saved key), and never shown again.
 */
export function ProviderDialog({
  list,
  view,
  initialKind,
  onDone,
  onCancel,
}: {
  list: AiProviderList;
  view?: AiProviderView;
  initialKind?: AiProviderKindInfo['kind'];
  onDone: (message: string | null) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const describe = useDescribeFailure();
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const mode = view ? 'edit' : 'create';
  const kinds = list.kinds;
  const taken = useMemo(
    () => list.providers.map((provider) => provider.name).filter((name) => name !== view?.name),
    [list.providers, view?.name],
  );
  const infoOf = (kind: ProviderDraft['kind']) => kinds.find((info) => info.kind === kind) ?? unknownKind(kind);
  const [draft, setDraft] = useState<ProviderDraft>(() => {
    if (view) return draftOf(view);
    const first = kinds.find((info) => info.kind === initialKind) ?? kinds[0] ?? unknownKind('openai');
    return newDraft(first, taken);
  });
  const [checked, setChecked] = useState(false);
  const create = useCreateProvider();
  const update = useUpdateProvider();
  const test = useTestProvider();
  const [savedOnly, setSavedOnly] = useState(false);
  const save = view ? update : create;

  const info = infoOf(draft.kind);
  const context = { mode, taken, keySaved: view?.key.set ?? false, savedBaseURL: view?.baseURL } as const;
  const problems = problemsOf(draft, info, context);
  const blocked = keyBlocked(draft, info, list.keysStorable, context);
  const need = keyNeed(info);
  const place = baseUrlPlace(info);
  const shown = (field: DraftField): string | undefined => {
    const problem = problems[field];
    return checked && problem ? t(PROBLEM_TEXT[problem], { kind: kindName(draft.kind, t) }) : undefined;
  };

  const change = (next: Partial<ProviderDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    // A result belongs to the settings it tried.
    if (test.data || test.error) test.reset();
  };

  const runTest = () => {
    setChecked(true);
    const { name: _name, ...settingsProblems } = problems;
    if (Object.keys(settingsProblems).length > 0) return;
    const { request, savedOnly: saved } = testRequest(draft, info, context);
    setSavedOnly(saved);
    test.mutate(request);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(problems).length > 0 || blocked) return;
    if (view) {
      const request = updateRequest(draft, view, info);
      if (Object.keys(request).length === 0) {
        onDone(null);
        return;
      }
      update.mutate(
        { name: view.name, request },
        { onSuccess: (saved) => onDone(t('providers.saved', { name: saved.name })) },
      );
    } else {
      create.mutate(createRequest(draft, info), {
        onSuccess: (saved) => onDone(t('providers.added', { name: saved.name })),
      });
    }
  };

  const keyHint = (): string => {
    if (!list.keysStorable) return t('providers.keysNotStorableHint');
    if (view?.key.set)
      return view.key.hint ? t('providers.keyKeptHint', { hint: view.key.hint }) : t('providers.keyKeptNoHint');
    return need === 'optional' ? t('providers.keyOptionalHint') : t('providers.keyHint');
  };

  const baseUrlField = (
    <SettingTextField
      id={`${id}-url`}
      label={info.needsBaseURL ? t('providers.baseURL') : t('providers.baseURLOptional')}
      hint={info.defaultBaseURL ? t('providers.baseURLDefault', { url: info.defaultBaseURL }) : undefined}
      problem={shown('baseURL')}
      setting="baseURL"
      value={draft.baseURL}
      onValueChange={(baseURL) => change({ baseURL })}
    />
  );

  const title = view ? t('providers.editTitle', { name: view.name }) : t('providers.addTitle');
  return (
    <ModalDialog title={title} onClose={onCancel} initialFocus={cancel} width="36rem" testId="provider-dialog">
      <form onSubmit={submit} noValidate aria-label={title}>
        {view ? null : (
          <>
            <SettingField id={`${id}-kind`} label={t('providers.kind')} hint={t('providers.kindHint')}>
              {(control) => (
                <Select
                  {...control}
                  value={draft.kind}
                  style={{ width: '100%' }}
                  onChange={(event) => {
                    const to = infoOf(event.target.value as ProviderDraft['kind']);
                    setDraft((current) => withKind(current, infoOf(current.kind), to, taken));
                    test.reset();
                  }}
                >
                  {kinds.map((kind) => (
                    <option key={kind.kind} value={kind.kind}>
                      {kindName(kind.kind, t)}
                    </option>
                  ))}
                </Select>
              )}
            </SettingField>
            <SettingTextField
              id={`${id}-name`}
              label={t('providers.name')}
              hint={t('providers.nameHint')}
              problem={shown('name')}
              setting="name"
              value={draft.name}
              onValueChange={(name) => change({ name: name.toLowerCase(), nameEdited: true })}
            />
          </>
        )}
        {need === 'none' ? null : (
          <SettingField
            id={`${id}-key`}
            label={need === 'optional' ? t('providers.keyOptional') : t('providers.key')}
            hint={keyHint()}
            problem={shown('apiKey')}
          >
            {(control) => (
              <>
                <SettingInput
                  {...control}
                  setting="apiKey"
                  value={draft.apiKey}
                  disabled={draft.removeKey}
                  onValueChange={(apiKey) => change({ apiKey })}
                />
                {view?.key.set ? (
                  <Check>
                    <input
                      type="checkbox"
                      checked={draft.removeKey}
                      onChange={(event) => change({ removeKey: event.target.checked, apiKey: '' })}
                    />
                    {t('providers.removeKey')}
                  </Check>
                ) : null}
              </>
            )}
          </SettingField>
        )}
        {place === 'main' ? baseUrlField : null}
        {draft.kind === 'azure' ? (
          <SettingTextField
            id={`${id}-resource`}
            label={t('providers.resourceName')}
            hint={t('providers.resourceNameHint')}
            problem={shown('resourceName')}
            setting="resourceName"
            value={draft.resourceName}
            onValueChange={(resourceName) => change({ resourceName })}
          />
        ) : null}
        {draft.kind === 'bedrock' ? (
          <SettingTextField
            id={`${id}-region`}
            label={t('providers.region')}
            hint={t('providers.regionHint')}
            problem={shown('region')}
            setting="region"
            value={draft.region}
            onValueChange={(region) => change({ region })}
          />
        ) : null}
        <SettingTextField
          id={`${id}-model`}
          label={draft.kind === 'local' ? t('providers.modelFile') : t('providers.model')}
          hint={
            info.defaultModel
              ? t('providers.modelDefault', { model: info.defaultModel })
              : draft.kind === 'azure'
                ? t('providers.modelDeployment')
                : undefined
          }
          problem={shown('model')}
          setting="model"
          value={draft.model}
          onValueChange={(model) => change({ model })}
        />
        <More>
          <summary>{t('providers.more')}</summary>
          <div>
            {place === 'more' ? baseUrlField : null}
            <fieldset style={{ border: 0, padding: 0, margin: '0 0 0.875rem' }}>
              <legend style={{ fontWeight: 600, padding: 0 }}>{t('providers.personaModels')}</legend>
              <Hint style={{ marginBottom: '0.5rem' }}>{t('providers.personaModelsHint')}</Hint>
              <Personas>
                {PERSONAS.map((persona: PersonaId) => (
                  <FormField key={persona}>
                    <label htmlFor={`${id}-persona-${persona}`}>{personaName(persona)}</label>
                    <SettingInput
                      id={`${id}-persona-${persona}`}
                      setting="model"
                      placeholder={draft.model}
                      value={draft.personaModels[persona] ?? ''}
                      onValueChange={(model) => change({ personaModels: { ...draft.personaModels, [persona]: model } })}
                    />
                  </FormField>
                ))}
              </Personas>
            </fieldset>
            <SettingField id={`${id}-vision`} label={t('providers.vision')}>
              {(control) => (
                <Select
                  {...control}
                  value={draft.vision}
                  style={{ width: '100%' }}
                  onChange={(event) => change({ vision: event.target.value as VisionChoice })}
                >
                  {view ? null : <option value="auto">{t('providers.vision.auto')}</option>}
                  <option value="yes">{t('providers.vision.yes')}</option>
                  <option value="no">{t('providers.vision.no')}</option>
                </Select>
              )}
            </SettingField>
          </div>
        </More>
        <TestOutcome
          pending={test.isPending}
          result={test.data}
          failure={test.isError ? describe('testProvider', test.error) : undefined}
          savedOnly={savedOnly}
        />
        {blocked ? (
          <Hint id={`${id}-blocked`} role="note" data-testid="keys-not-storable" style={{ marginTop: '0.75rem' }}>
            {t('providers.keysNotStorable')}
          </Hint>
        ) : null}
        {save.isError ? <ActionError message={describe(view ? 'updateProvider' : 'addProvider', save.error)} /> : null}
        <DialogActions style={{ marginTop: '1rem' }}>
          <Button ref={cancel} type="button" variant="ghost" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="button" variant="secondary" onClick={runTest} disabled={test.isPending}>
            {test.isPending ? t('providers.testing') : t('providers.test')}
          </Button>
          <Button
            type="submit"
            disabled={save.isPending || blocked}
            aria-describedby={blocked ? `${id}-blocked` : undefined}
          >
            {save.isPending ? t('common.working') : view ? t('providers.save') : t('providers.add')}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}
