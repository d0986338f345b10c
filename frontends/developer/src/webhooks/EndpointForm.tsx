import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { richText } from '@kasa/i18n/richText';
import { Button, InlineError, Muted, TextInput } from '@kasa/ui';
import { Label } from '@kasa/ui/widgets';
import type { CreateWebhookEndpointResponse, WebhookEventType } from '@kasa/contracts';
import { useCreateWebhookEndpoint } from '../api/webhooks';
import { useDescribeFailure } from '../i18n/describeFailure';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { Card } from '../ui/controls';
import { Choices, Field, Hint, Problem } from './styles';
import {
  DESCRIPTION_MAX,
  EVENT_TEXT,
  URL_MAX,
  WEBHOOK_EVENT_TYPES,
  draftProblems,
  refusalOf,
  refusalReason,
  toggledEvents,
  type DraftProblems,
} from './webhookRules';

/** What the address field shows before anything is typed (an address: the same in every language). */
const URL_PLACEHOLDER = 'https://example.com/webhooks/kasa';

/** Where a person on a plan without room for another endpoint can see the others. */
export function LimitReached({ limit }: { limit: number }) {
  const t = usePanelsT();
  return (
    <>
      {richText((parts) => t('webhooks.limitReached', { ...parts, limit }), {
        link: <Link to="/pricing">{t('webhooks.seePlans')}</Link>,
      })}
    </>
  );
}

/**
 * Adding an endpoint: its address, an optional description and the events it receives (each with what it means).
 * The form's own checks are the API's limits; the API's refusals (a private address, the plan's limit) say what to
 * do. `full`: the plan's endpoints are all in use, so the form says so instead of failing on submit.
 */
export function EndpointForm({
  limit,
  full,
  onCreated,
}: {
  limit: number | undefined;
  full: boolean;
  onCreated: (created: CreateWebhookEndpointResponse) => void;
}) {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const ids = { url: useId(), urlHint: useId(), description: useId(), problem: useId() };
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [problems, setProblems] = useState<DraftProblems>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = draftProblems({ url, description, events });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const trimmed = description.trim();
    create.mutate(
      { url: url.trim(), events, ...(trimmed ? { description: trimmed } : {}) },
      {
        onSuccess: (created) => {
          setUrl('');
          setDescription('');
          setEvents([]);
          onCreated(created);
        },
      },
    );
  };

  const refusal = refusalOf(create.error);
  return (
    <Card aria-labelledby="add-webhook-title">
      <h2 id="add-webhook-title">{t('webhooks.add.title')}</h2>
      {full && limit !== undefined ? (
        <Muted role="status" data-testid="webhook-limit-note" style={{ marginBottom: '1rem' }}>
          <LimitReached limit={limit} />
        </Muted>
      ) : null}
      <form onSubmit={onSubmit} aria-labelledby="add-webhook-title" noValidate data-testid="add-webhook">
        <Field>
          <Label htmlFor={ids.url}>{t('webhooks.add.url')}</Label>
          <TextInput
            id={ids.url}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            dir="ltr"
            value={url}
            maxLength={URL_MAX}
            placeholder={URL_PLACEHOLDER}
            aria-invalid={problems.url ? true : undefined}
            aria-describedby={problems.url ? `${ids.urlHint} ${ids.url}-problem` : ids.urlHint}
            onChange={(e) => setUrl(e.target.value)}
            disabled={create.isPending}
          />
          <Hint id={ids.urlHint}>{t('webhooks.add.urlHint')}</Hint>
          {problems.url ? (
            <Problem id={`${ids.url}-problem`} data-testid="webhook-url-problem">
              {t(problems.url, { max: URL_MAX })}
            </Problem>
          ) : null}
        </Field>
        <Field>
          <Label htmlFor={ids.description}>{t('webhooks.add.description')}</Label>
          <TextInput
            id={ids.description}
            value={description}
            maxLength={DESCRIPTION_MAX}
            placeholder={t('webhooks.add.descriptionPlaceholder')}
            aria-invalid={problems.description ? true : undefined}
            aria-describedby={problems.description ? `${ids.description}-problem` : undefined}
            onChange={(e) => setDescription(e.target.value)}
            disabled={create.isPending}
          />
          {problems.description ? (
            <Problem id={`${ids.description}-problem`}>{t(problems.description, { max: DESCRIPTION_MAX })}</Problem>
          ) : null}
        </Field>
        <Choices
          disabled={create.isPending}
          aria-describedby={problems.events ? `${ids.problem}-events` : undefined}
          data-testid="webhook-events"
        >
          <legend>{t('webhooks.add.events')}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                name="events"
                value={type}
                checked={events.includes(type)}
                onChange={(e) => setEvents((current) => toggledEvents(current, type, e.target.checked))}
              />
              <span>
                <code dir="ltr">{type}</code> {t(EVENT_TEXT[type])}
              </span>
            </label>
          ))}
          {problems.events ? (
            <Problem id={`${ids.problem}-events`} data-testid="webhook-events-problem">
              {t(problems.events)}
            </Problem>
          ) : null}
        </Choices>
        {create.isError ? (
          <InlineError role="alert" style={{ marginBottom: '1rem' }} data-testid="webhook-create-error">
            <p>
              {refusal === 'url_not_allowed'
                ? t('webhooks.refused.urlNotAllowed', { reason: refusalReason(create.error) })
                : null}
              {refusal === 'limit_reached' ? (
                limit === undefined ? (
                  t('webhooks.refused.limit')
                ) : (
                  <LimitReached limit={limit} />
                )
              ) : null}
              {refusal === null ? t('webhooks.add.failed', { reason: describeFailure(create.error) }) : null}
            </p>
          </InlineError>
        ) : null}
        <Button type="submit" disabled={create.isPending || full}>
          {create.isPending ? t('webhooks.add.adding') : t('webhooks.add.submit')}
        </Button>
      </form>
    </Card>
  );
}
