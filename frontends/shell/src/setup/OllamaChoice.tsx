import { useId, useState } from 'react';
import { Button, Muted, Select } from '@kasa/ui';
import { uniqueName } from '@kasa/ui/aiProviders';
import { useCreateProvider, useProviderTest } from './aiSetupApi';
import { useAiT, useDescribe } from './aiSetupText';
import { Failure, Rows, SettingField, StepActions } from './setupParts';
import { TestOutcome } from './TestOutcome';

/** Use the Ollama found on this machine: pick one of its models; it is tested, then saved. */
export function OllamaChoice({
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
    <Rows data-testid="ai-ollama">
      {models.length === 0 ? (
        <Muted>{t('ai.ollama.noModels')}</Muted>
      ) : (
        <SettingField id={`${id}-model`} label={t('ai.model')}>
          {(control) => (
            <Select {...control} value={model} onChange={(event) => setModel(event.target.value)}>
              {models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
          )}
        </SettingField>
      )}
      <TestOutcome result={test.data} failure={test.isError ? describe(test.error) : undefined} />
      {create.isError ? <Failure message={t('ai.saveFailed', { reason: describe(create.error) })} /> : null}
      <StepActions>
        <Button type="button" disabled={busy || !model} onClick={use}>
          {test.isPending ? t('ai.testing') : create.isPending ? t('ai.saving') : t('ai.ollama.use')}
        </Button>
      </StepActions>
    </Rows>
  );
}
