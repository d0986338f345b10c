import { useState } from 'react';
import { InlineError, Muted } from '@kasa/ui';
import { ConfirmDialog, LoadingSkeleton } from '@kasa/ui/widgets';
import type { WebhookEndpoint } from '@kasa/contracts';
import { useDeleteWebhookEndpoint, useRotateWebhookSecret, useWebhookEndpoints } from '../api/webhooks';
import { useDescribeFailure } from '../i18n/describeFailure';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { Badge, Card, Row } from '../ui/controls';
import { LoadError } from '../ui/States';
import { EndpointForm } from '../webhooks/EndpointForm';
import { EndpointItem } from '../webhooks/EndpointItem';
import { NewSecret, type ShownSecret } from '../webhooks/NewSecret';
import { Items, Stack } from '../webhooks/styles';
import { atLimit } from '../webhooks/webhookRules';

/** A step that asks first: deleting an endpoint, or rotating its secret. */
interface Pending {
  kind: 'delete' | 'rotate';
  endpoint: WebhookEndpoint;
}

/**
 * Webhooks: the person's endpoints (each with its events, on/off switch, test event, delivery log, secret rotation and
 * deletion), an add form, and the signing secret of a new endpoint or a rotation, shown once with how to verify it.
 */
export default function WebhooksTab() {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const list = useWebhookEndpoints();
  const remove = useDeleteWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  const endpoints = list.data?.endpoints;
  const limit = list.data?.limit;
  const full = endpoints !== undefined && limit !== undefined && atLimit(endpoints.length, limit);

  const confirm = () => {
    if (!pending) return;
    const { kind, endpoint } = pending;
    if (kind === 'delete') {
      remove.mutate(endpoint.id, {
        onSuccess: () => setShown((current) => (current?.url === endpoint.url ? null : current)),
        onSettled: () => setPending(null),
      });
    } else {
      rotate.mutate(endpoint.id, {
        onSuccess: ({ secret }) => setShown({ url: endpoint.url, secret, rotated: true }),
        onSettled: () => setPending(null),
      });
    }
  };

  return (
    <Stack>
      {shown ? <NewSecret shown={shown} onDone={() => setShown(null)} /> : null}
      <Card aria-labelledby="webhooks-title">
        <Row style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
          <h2 id="webhooks-title" style={{ margin: 0 }}>
            {t('webhooks.title')}
          </h2>
          {endpoints && limit !== undefined ? (
            <Badge data-testid="webhook-count">{t('webhooks.count', { count: endpoints.length, limit })}</Badge>
          ) : null}
        </Row>
        <Muted style={{ marginBottom: '0.75rem' }}>{t('webhooks.intro')}</Muted>
        {list.isPending ? <LoadingSkeleton lines={3}>{t('webhooks.loading')}</LoadingSkeleton> : null}
        {list.isError && !list.data ? (
          <LoadError
            message={t('webhooks.failed', { reason: describeFailure(list.error) })}
            onRetry={() => void list.refetch()}
          />
        ) : null}
        {remove.isError ? (
          <InlineError role="alert" style={{ marginBottom: '0.75rem' }}>
            <p>{t('webhooks.endpoint.deleteFailed', { reason: describeFailure(remove.error) })}</p>
          </InlineError>
        ) : null}
        {rotate.isError ? (
          <InlineError role="alert" style={{ marginBottom: '0.75rem' }}>
            <p>{t('webhooks.endpoint.rotateFailed', { reason: describeFailure(rotate.error) })}</p>
          </InlineError>
        ) : null}
        {endpoints && endpoints.length === 0 ? (
          <div data-testid="no-webhooks">
            <p style={{ margin: '0 0 0.25rem', fontWeight: 600 }}>{t('webhooks.empty.title')}</p>
            <Muted>{t('webhooks.empty.text')}</Muted>
          </div>
        ) : null}
        {endpoints?.length ? (
          <Items aria-label={t('webhooks.list')}>
            {endpoints.map((endpoint) => (
              <EndpointItem
                key={endpoint.id}
                endpoint={endpoint}
                onRotate={(e) => setPending({ kind: 'rotate', endpoint: e })}
                onDelete={(e) => setPending({ kind: 'delete', endpoint: e })}
              />
            ))}
          </Items>
        ) : null}
      </Card>
      <EndpointForm
        limit={limit}
        full={full}
        onCreated={({ endpoint, secret }) => setShown({ url: endpoint.url, secret, rotated: false })}
      />
      {pending?.kind === 'delete' ? (
        <ConfirmDialog
          title={t('webhooks.confirm.deleteTitle', { url: pending.endpoint.url })}
          confirmLabel={t('webhooks.confirm.delete')}
          busy={remove.isPending}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          <p>{t('webhooks.confirm.deleteText')}</p>
        </ConfirmDialog>
      ) : null}
      {pending?.kind === 'rotate' ? (
        <ConfirmDialog
          title={t('webhooks.confirm.rotateTitle', { url: pending.endpoint.url })}
          confirmLabel={t('webhooks.confirm.rotate')}
          busy={rotate.isPending}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          <p>{t('webhooks.confirm.rotateText')}</p>
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}
