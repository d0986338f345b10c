import styled from '@emotion/styled';
import { Button, InlineError } from '@kasa/ui';
import { LoadingSkeleton } from '@kasa/ui/widgets';
import type { WebhookDelivery } from '@kasa/contracts';
import { useReplayWebhookDelivery, useWebhookDeliveries } from '../api/webhooks';
import { useRefresh } from '../hooks/useRefresh';
import { useDescribeFailure } from '../i18n/describeFailure';
import { NONE, useFormats } from '../i18n/format';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { useNotify } from '../notify';
import { Badge, Row, Spinner } from '../ui/controls';
import { Empty, LoadError } from '../ui/States';
import { Items, Log } from './styles';
import {
  DELIVERY_STATUS_COLOURS,
  DELIVERY_STATUS_MARKS,
  DELIVERY_STATUS_TEXT,
  deliveriesOf,
  lastResponse,
} from './webhookRules';

const Mark = styled.span<{ colour: string }>`
  color: ${({ colour }) => colour};
`;

function StatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  const t = usePanelsT();
  return (
    <Badge data-testid="delivery-status" data-status={delivery.status}>
      <Mark colour={DELIVERY_STATUS_COLOURS[delivery.status]} aria-hidden="true">
        {DELIVERY_STATUS_MARKS[delivery.status]}
      </Mark>
      {t(DELIVERY_STATUS_TEXT[delivery.status])}
    </Badge>
  );
}

function DeliveryItem({
  delivery,
  replaying,
  mayReplay,
  onReplay,
}: {
  delivery: WebhookDelivery;
  replaying: boolean;
  /** Only an enabled endpoint takes replays. */
  mayReplay: boolean;
  onReplay: (delivery: WebhookDelivery) => void;
}) {
  const t = usePanelsT();
  const formats = useFormats();
  const created = formats.dateTime(delivery.createdAt);
  return (
    <li
      data-testid="webhook-delivery"
      data-delivery-id={delivery.id}
      data-event-id={delivery.eventId}
      data-status={delivery.status}
      data-event-type={delivery.eventType}
    >
      <Row style={{ justifyContent: 'space-between' }}>
        <Row>
          <code dir="ltr">{delivery.eventType}</code>
          <StatusBadge delivery={delivery} />
          {delivery.replayOf ? <Badge>{t('webhooks.delivery.replay')}</Badge> : null}
        </Row>
        <Button
          type="button"
          variant="secondary"
          compact
          disabled={replaying || !mayReplay}
          onClick={() => onReplay(delivery)}
          aria-label={t('webhooks.deliveries.replayNamed', { event: delivery.eventType, time: created })}
        >
          {t('webhooks.deliveries.replay')}
        </Button>
      </Row>
      <dl>
        <div>
          <dt>{t('webhooks.delivery.attempts')}</dt>
          <dd data-testid="delivery-attempts">{formats.count(delivery.attempts)}</dd>
        </div>
        <div>
          <dt>{t('webhooks.delivery.lastResponse')}</dt>
          <dd data-testid="delivery-response">{lastResponse(delivery) ?? t('webhooks.delivery.noResponse')}</dd>
        </div>
        <div>
          <dt>{t('webhooks.delivery.nextAttempt')}</dt>
          <dd>{formats.dateTime(delivery.nextAttemptAt, NONE)}</dd>
        </div>
        <div>
          <dt>{t('webhooks.delivery.created')}</dt>
          <dd>{created}</dd>
        </div>
        {delivery.deliveredAt ? (
          <div>
            <dt>{t('webhooks.delivery.deliveredAt')}</dt>
            <dd>{formats.dateTime(delivery.deliveredAt)}</dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}

/**
 * An endpoint's deliveries, newest first: each one's event, status, attempts, last answer, next attempt and time, with
 * Replay (a new delivery of the same event). Refresh reads it again; "Load more" reads the next page. While a
 * delivery waits for an attempt the log reads itself again every few seconds.
 */
export function DeliveriesLog({
  endpointId,
  enabled,
  id,
  label,
}: {
  endpointId: string;
  /** Whether the endpoint is on: a switched-off endpoint takes no replays. */
  enabled: boolean;
  id: string;
  label: string;
}) {
  const t = usePanelsT();
  const notify = useNotify();
  const describeFailure = useDescribeFailure();
  const log = useWebhookDeliveries(endpointId);
  const replay = useReplayWebhookDelivery();
  const { refreshing, refresh } = useRefresh(() => log.refetch());
  const deliveries = deliveriesOf(log.data?.pages);

  const onReplay = (delivery: WebhookDelivery) =>
    replay.mutate(
      { endpointId, deliveryId: delivery.id },
      {
        onSuccess: () =>
          notify({
            title: t('webhooks.toast.replayTitle'),
            description: t('webhooks.toast.replayText', { event: delivery.eventType }),
            variant: 'success',
          }),
      },
    );

  return (
    <Log id={id} aria-label={label} data-testid="webhook-deliveries">
      <Row style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
        <h4>{t('webhooks.deliveries.title')}</h4>
        <Button type="button" variant="secondary" compact onClick={() => void refresh()} disabled={refreshing}>
          {refreshing ? <Spinner aria-hidden="true" /> : null}
          {refreshing ? t('common.refreshing') : t('common.refresh')}
        </Button>
      </Row>
      {log.isPending ? <LoadingSkeleton lines={2}>{t('webhooks.deliveries.loading')}</LoadingSkeleton> : null}
      {log.isError && !log.data ? (
        <LoadError
          message={t('webhooks.deliveries.failed', { reason: describeFailure(log.error) })}
          onRetry={() => void log.refetch()}
        />
      ) : null}
      {replay.isError ? (
        <InlineError role="alert" style={{ marginBottom: '0.5rem' }}>
          <p>{t('webhooks.deliveries.replayFailed', { reason: describeFailure(replay.error) })}</p>
        </InlineError>
      ) : null}
      {log.data && deliveries.length === 0 ? (
        <Empty testId="no-deliveries">{t('webhooks.deliveries.empty')}</Empty>
      ) : null}
      {deliveries.length ? (
        <Items aria-label={t('webhooks.deliveries.list')}>
          {deliveries.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              replaying={replay.isPending && replay.variables?.deliveryId === delivery.id}
              mayReplay={enabled}
              onReplay={onReplay}
            />
          ))}
        </Items>
      ) : null}
      {log.isError && log.data ? (
        <LoadError
          message={t('webhooks.deliveries.failed', { reason: describeFailure(log.error) })}
          onRetry={() => void log.refetch()}
        />
      ) : null}
      {log.hasNextPage ? (
        <Button
          type="button"
          variant="secondary"
          compact
          style={{ marginTop: '0.75rem' }}
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? t('webhooks.deliveries.loadingMore') : t('webhooks.deliveries.loadMore')}
        </Button>
      ) : null}
    </Log>
  );
}
