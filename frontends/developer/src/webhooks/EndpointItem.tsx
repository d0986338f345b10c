import { useId, useState } from 'react';
import { Button, InlineError, Muted } from '@kasa/ui';
import type { WebhookEndpoint } from '@kasa/contracts';
import { useSendWebhookTest, useSetWebhookEnabled } from '../api/webhooks';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { useNotify } from '../notify';
import { Row } from '../ui/controls';
import { DeliveriesLog } from './DeliveriesLog';
import { Address, EventTag, Hint, Switch, Tags } from './styles';

/**
 * One endpoint: its address, description and events, the on/off switch, and its actions (test event, deliveries,
 * secret rotation, deletion; the last two ask first, through `onRotate` and `onDelete`).
 */
export function EndpointItem({
  endpoint,
  onRotate,
  onDelete,
}: {
  endpoint: WebhookEndpoint;
  onRotate: (endpoint: WebhookEndpoint) => void;
  onDelete: (endpoint: WebhookEndpoint) => void;
}) {
  const t = usePanelsT();
  const formats = useFormats();
  const notify = useNotify();
  const describeFailure = useDescribeFailure();
  const logId = useId();
  const [open, setOpen] = useState(false);
  const setEnabled = useSetWebhookEnabled();
  const test = useSendWebhookTest();

  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        setOpen(true);
        notify({ title: t('webhooks.toast.testTitle'), description: t('webhooks.toast.testText'), variant: 'success' });
      },
    });

  return (
    <li data-testid="webhook-endpoint" data-endpoint-id={endpoint.id} data-url={endpoint.url}>
      <Row style={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <div style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Address dir="ltr">{endpoint.url}</Address>
          {endpoint.description ? <Muted style={{ overflowWrap: 'anywhere' }}>{endpoint.description}</Muted> : null}
        </div>
        <Switch>
          <input
            type="checkbox"
            role="switch"
            checked={endpoint.enabled}
            disabled={setEnabled.isPending}
            aria-label={t('webhooks.endpoint.enabledNamed', { url: endpoint.url })}
            onChange={(e) => setEnabled.mutate({ id: endpoint.id, enabled: e.target.checked })}
          />
          <span aria-hidden="true">{t('webhooks.endpoint.enabled')}</span>
        </Switch>
      </Row>
      <Tags aria-label={t('webhooks.endpoint.events')}>
        {endpoint.events.map((event) => (
          <li key={event}>
            <EventTag dir="ltr">{event}</EventTag>
          </li>
        ))}
      </Tags>
      <dl>
        <div>
          <dt>{t('webhooks.endpoint.added')}</dt>
          <dd>{formats.dateTime(endpoint.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('webhooks.endpoint.state')}</dt>
          <dd data-testid="webhook-endpoint-state">
            {endpoint.enabled ? t('webhooks.endpoint.on') : t('webhooks.endpoint.off')}
          </dd>
        </div>
      </dl>
      {setEnabled.isError ? (
        <InlineError role="alert" style={{ marginBottom: '0.5rem' }}>
          <p>{t('webhooks.endpoint.toggleFailed', { reason: describeFailure(setEnabled.error) })}</p>
        </InlineError>
      ) : null}
      {test.isError ? (
        <InlineError role="alert" style={{ marginBottom: '0.5rem' }}>
          <p>{t('webhooks.endpoint.testFailed', { reason: describeFailure(test.error) })}</p>
        </InlineError>
      ) : null}
      <Row>
        <Button type="button" compact onClick={sendTest} disabled={test.isPending || !endpoint.enabled}>
          {test.isPending ? t('webhooks.endpoint.sending') : t('webhooks.endpoint.sendTest')}
        </Button>
        <Button
          type="button"
          variant="secondary"
          compact
          aria-expanded={open}
          aria-controls={open ? logId : undefined}
          onClick={() => setOpen((value) => !value)}
        >
          {t('webhooks.endpoint.deliveries')}
        </Button>
        <Button type="button" variant="secondary" compact onClick={() => onRotate(endpoint)}>
          {t('webhooks.endpoint.rotate')}
        </Button>
        <Button
          type="button"
          variant="danger"
          compact
          onClick={() => onDelete(endpoint)}
          aria-label={t('webhooks.endpoint.deleteNamed', { url: endpoint.url })}
        >
          {t('webhooks.endpoint.delete')}
        </Button>
      </Row>
      {endpoint.enabled ? null : <Hint>{t('webhooks.endpoint.offHint')}</Hint>}
      {open ? (
        <DeliveriesLog
          endpointId={endpoint.id}
          enabled={endpoint.enabled}
          id={logId}
          label={t('webhooks.deliveries.of', { url: endpoint.url })}
        />
      ) : null}
    </li>
  );
}
