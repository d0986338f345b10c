import { useId, useState, type FormEvent } from 'react';
import { isApiError } from '@kasa/api-client';
import type { AiProviderView } from '@kasa/contracts';
import { Button, Muted } from '@kasa/ui';
import { downloadProgress, downloadTarget, fileOfUrl, uniqueName } from '@kasa/ui/aiProviders';
import { LoadingSkeleton, ProgressBar } from '@kasa/ui/widgets';
import { useCancelLocalModel, useCreateProvider, useDownloadLocalModel, useLocalModel } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { useT } from '../i18n/useT';
import { Panel, Row, Stack } from '../ui/controls';
import { ActionError, LoadError } from '../ui/States';
import { SettingTextField } from './SettingField';

/**
 * The local model: a model file that runs inside the chat service. Its state; Download (from a URL the operator can
 * change), a progress bar asked again every second, Cancel, Resume after a failure; once ready, Use this model adds
 * a provider of kind `local` for the file (or says which provider uses it already).
 */
export function LocalModelPanel({
  providers,
  onNotice,
}: {
  providers: readonly AiProviderView[];
  onNotice: (message: string) => void;
}) {
  const t = useT();
  const formats = useFormats();
  const describe = useDescribeFailure();
  const id = useId();
  const status = useLocalModel();
  const download = useDownloadLocalModel();
  const cancel = useCancelLocalModel();
  const create = useCreateProvider();
  /** The URL typed, or null to show where the file is fetched from. */
  const [typed, setTyped] = useState<string | null>(null);
  const [badUrl, setBadUrl] = useState(false);

  const start = (event: FormEvent) => {
    event.preventDefault();
    const target = downloadTarget(typed, status.data?.url ?? '');
    setBadUrl(!target.ok);
    if (!target.ok) return;
    cancel.reset();
    download.mutate(target.url);
  };

  let body;
  if (status.isPending) body = <LoadingSkeleton lines={2}>{t('localModel.loading')}</LoadingSkeleton>;
  // The providers loaded, so the role is there: a 404 here is a chat service without the local model.
  else if (status.isError && !status.data && isApiError(status.error) && status.error.status === 404)
    body = <Muted data-testid="local-model-unavailable">{t('localModel.unavailable')}</Muted>;
  else if (status.isError && !status.data)
    body = (
      <LoadError
        message={t('localModel.loadFailed', { reason: describe('load', status.error) })}
        onRetry={() => void status.refetch()}
      />
    );
  else {
    const model = status.data;
    const file = model.file ?? fileOfUrl(model.url);
    const progress = downloadProgress(model, formats, t, {
      known: 'localModel.progress',
      unknown: 'localModel.progressUnknown',
    });
    const using = providers.find((provider) => provider.kind === 'local' && provider.model === model.file);
    const urlForm = (
      <form onSubmit={start} noValidate aria-labelledby={`${id}-title`}>
        <SettingTextField
          id={`${id}-url`}
          label={t('localModel.url')}
          hint={t('localModel.urlHint')}
          problem={badUrl ? t('localModel.problem.url') : undefined}
          setting="baseURL"
          value={typed ?? model.url}
          onValueChange={setTyped}
        />
        <Button type="submit" disabled={download.isPending}>
          {download.isPending
            ? t('common.working')
            : model.state === 'failed'
              ? t('localModel.resume')
              : t('localModel.download')}
        </Button>
      </form>
    );

    if (model.state === 'downloading')
      body = (
        <Stack>
          <p style={{ margin: 0 }}>{t('localModel.downloading', { file })}</p>
          <ProgressBar
            percent={progress.percent}
            label={t('localModel.progressLabel')}
            text={progress.text}
            testId="local-model-progress"
          />
          <Muted>{progress.text}</Muted>
          <Row>
            <Button type="button" variant="secondary" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              {cancel.isPending ? t('common.working') : t('localModel.cancel')}
            </Button>
          </Row>
        </Stack>
      );
    else if (model.state === 'ready')
      body = (
        <Stack>
          <p style={{ margin: 0 }} data-testid="local-model-ready">
            {t('localModel.ready', { file, size: formats.bytes(model.totalBytes ?? model.bytes) })}
          </p>
          {using ? (
            <Muted>{t('localModel.inUse', { name: using.name })}</Muted>
          ) : (
            <Row>
              <Button
                type="button"
                disabled={create.isPending || !model.file}
                onClick={() =>
                  create.mutate(
                    {
                      name: uniqueName(
                        'local',
                        providers.map((provider) => provider.name),
                      ),
                      kind: 'local',
                      model: model.file!,
                    },
                    { onSuccess: (saved) => onNotice(t('providers.added', { name: saved.name })) },
                  )
                }
              >
                {create.isPending ? t('common.working') : t('localModel.use')}
              </Button>
            </Row>
          )}
        </Stack>
      );
    else
      body = (
        <Stack>
          {model.state === 'failed' ? (
            <ActionError message={t('localModel.failed', { reason: model.error ?? t('failure.unknown') })} />
          ) : (
            <Muted>{t('localModel.absent')}</Muted>
          )}
          {model.state === 'failed' && model.bytes > 0 ? (
            <Muted>{t('localModel.resumeHint', { done: formats.bytes(model.bytes) })}</Muted>
          ) : null}
          {urlForm}
        </Stack>
      );
  }

  return (
    <Panel aria-labelledby={`${id}-title`} data-testid="local-model">
      <h2 id={`${id}-title`}>{t('localModel.title')}</h2>
      <Stack>
        <Muted>{t('localModel.intro')}</Muted>
        {body}
        {download.isError ? <ActionError message={describe('localModel', download.error)} /> : null}
        {cancel.isError ? <ActionError message={describe('localModel', cancel.error)} /> : null}
        {create.isError ? <ActionError message={describe('addProvider', create.error)} /> : null}
      </Stack>
    </Panel>
  );
}
