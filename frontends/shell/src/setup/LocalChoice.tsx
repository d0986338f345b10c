import { useId, useState, type FormEvent } from 'react';
import { isApiError } from '@kasa/api-client';
import { Button, Muted, SkeletonBar } from '@kasa/ui';
import { downloadProgress, downloadTarget, fileOfUrl, uniqueName } from '@kasa/ui/aiProviders';
import { ProgressBar } from '@kasa/ui/widgets';
import { useCancelLocalModel, useCreateProvider, useDownloadLocalModel, useLocalModel } from './aiSetupApi';
import { useAiT, useDescribe, useFormats } from './aiSetupText';
import { Failure, FormRows, LoadFailure, Rows, SettingTextField, StepActions } from './setupParts';

/** Download the local model: its state, a progress bar while it downloads (asked every second), then Use it. */
export function LocalChoice({ taken, onConnected }: { taken: string[]; onConnected: (name: string) => void }) {
  const t = useAiT();
  const formats = useFormats();
  const describe = useDescribe();
  const id = useId();
  const status = useLocalModel(true);
  const download = useDownloadLocalModel();
  const cancel = useCancelLocalModel();
  const create = useCreateProvider();
  /** The address typed, or null to show where the file comes from. */
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
      <LoadFailure
        message={t('ai.local.loadFailed', { reason: describe(status.error) })}
        onRetry={() => void status.refetch()}
      />
    );

  const model = status.data;
  const file = model.file ?? fileOfUrl(model.url);

  const start = (event: FormEvent) => {
    event.preventDefault();
    const target = downloadTarget(typed, model.url);
    setBadUrl(!target.ok);
    if (target.ok) download.mutate(target.url);
  };

  let body;
  if (model.state === 'downloading') {
    const progress = downloadProgress(model, formats, t, {
      known: 'ai.local.progress',
      unknown: 'ai.local.progressUnknown',
    });
    body = (
      <>
        <p>{t('ai.local.downloading', { file })}</p>
        <ProgressBar
          percent={progress.percent}
          label={t('ai.local.progressLabel')}
          text={progress.text}
          testId="ai-local-progress"
        />
        <Muted>{progress.text}</Muted>
        <StepActions>
          <Button type="button" variant="secondary" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            {t('ai.local.cancel')}
          </Button>
        </StepActions>
      </>
    );
  } else if (model.state === 'ready')
    body = (
      <>
        <p>{t('ai.local.ready', { file, size: formats.bytes(model.totalBytes ?? model.bytes) })}</p>
        <StepActions>
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
        </StepActions>
      </>
    );
  else
    body = (
      <FormRows onSubmit={start} noValidate>
        {model.state === 'failed' ? (
          <Failure message={t('ai.local.failed', { reason: model.error ?? t('failure.unknown') })} />
        ) : (
          <Muted>{t('ai.local.absent')}</Muted>
        )}
        <SettingTextField
          id={`${id}-url`}
          label={t('ai.local.url')}
          hint={t('ai.local.urlHint')}
          problem={badUrl ? t('ai.problem.baseURL') : undefined}
          setting="baseURL"
          value={typed ?? model.url}
          onValueChange={setTyped}
        />
        <StepActions>
          <Button type="submit" disabled={download.isPending}>
            {model.state === 'failed' ? t('ai.local.resume') : t('ai.local.download')}
          </Button>
        </StepActions>
      </FormRows>
    );

  const failure = download.error ?? cancel.error ?? create.error;
  return (
    <Rows data-testid="ai-local">
      {body}
      {failure ? (
        <Failure
          message={
            isApiError(failure) && failure.status === 409
              ? t('ai.local.running')
              : t('ai.saveFailed', { reason: describe(failure) })
          }
        />
      ) : null}
    </Rows>
  );
}
