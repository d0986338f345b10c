import { useId, useState } from 'react';
import type { AiProviderView } from '@kasa/contracts';
import { Button, Muted, Select } from '@kasa/ui';
import { uniqueName } from '@kasa/ui/aiProviders';
import { useCreateProvider, useDiscovery } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useT } from '../i18n/useT';
import { Mono, Panel, Row, Stack } from '../ui/controls';
import { ActionError } from '../ui/States';

/** The command that gives a new Ollama a model (a command, the same in every language). */
const PULL_COMMAND = 'ollama pull llama3.2';

/**
 * A local Ollama, as the chat service finds it on its machine: when it answers, Add puts it in the chain with the
 * model picked among those it has; otherwise what to do, and Refresh.
 */
export function OllamaPanel({
  providers,
  onNotice,
}: {
  providers: readonly AiProviderView[];
  onNotice: (message: string) => void;
}) {
  const t = useT();
  const describe = useDescribeFailure();
  const id = useId();
  const discovery = useDiscovery();
  const create = useCreateProvider();
  const [picked, setPicked] = useState<string | null>(null);

  let body;
  if (discovery.isPending) body = <Muted role="status">{t('ollama.looking')}</Muted>;
  else if (discovery.isError && !discovery.data)
    body = <Muted>{t('ollama.lookFailed', { reason: describe('load', discovery.error) })}</Muted>;
  else {
    const { found, baseURL, models } = discovery.data.ollama;
    const using = providers.find(
      (provider) =>
        provider.kind === 'ollama' && (provider.baseURL ?? '').replace(/\/+$/, '') === baseURL.replace(/\/+$/, ''),
    );
    const model = picked ?? models[0] ?? '';
    if (!found) body = <Muted>{t('ollama.notFound', { url: baseURL })}</Muted>;
    else if (using) body = <Muted>{t('ollama.inUse', { url: baseURL, name: using.name })}</Muted>;
    else if (models.length === 0) body = <Muted>{t('ollama.noModels', { url: baseURL })}</Muted>;
    else
      body = (
        <Stack>
          <p style={{ margin: 0 }}>{t('ollama.found', { url: baseURL, count: models.length })}</p>
          <Row>
            <label htmlFor={`${id}-model`}>{t('ollama.model')}</label>
            <Select id={`${id}-model`} value={model} onChange={(event) => setPicked(event.target.value)}>
              {models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
            <Button
              type="button"
              disabled={create.isPending}
              onClick={() =>
                create.mutate(
                  {
                    name: uniqueName(
                      'ollama',
                      providers.map((provider) => provider.name),
                    ),
                    kind: 'ollama',
                    baseURL,
                    model,
                  },
                  { onSuccess: (saved) => onNotice(t('providers.added', { name: saved.name })) },
                )
              }
            >
              {create.isPending ? t('common.working') : t('ollama.add')}
            </Button>
          </Row>
        </Stack>
      );
  }

  return (
    <Panel aria-labelledby={`${id}-title`} data-testid="ollama">
      <h2 id={`${id}-title`}>{t('ollama.title')}</h2>
      <Stack>
        {body}
        {discovery.data && (!discovery.data.ollama.found || discovery.data.ollama.models.length === 0) ? (
          <Muted>
            {t('ollama.pull')} <Mono dir="ltr">{PULL_COMMAND}</Mono>
          </Muted>
        ) : null}
        {create.isError ? <ActionError message={describe('addProvider', create.error)} /> : null}
        <Row>
          <Button
            type="button"
            variant="secondary"
            compact
            disabled={discovery.isFetching}
            onClick={() => void discovery.refetch()}
          >
            {discovery.isFetching ? t('common.refreshing') : t('common.refresh')}
          </Button>
        </Row>
      </Stack>
    </Panel>
  );
}
