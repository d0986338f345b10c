import { useId, useState, type FormEvent } from 'react';
import { useAuth } from '@kasa/api-client';
import { Button, Muted, TextInput } from '@kasa/ui';
import { ConfirmDialog } from '@kasa/ui/widgets';
import type { OperatorView } from '../api/adminApi';
import { useAddOperator, useOperators, useRemoveOperator } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useT } from '../i18n/useT';
import { Badge, FieldProblem, FormField, Hint, ItemList, Panel, Row, Stack } from '../ui/controls';
import { ActionError, Empty, LoadError, Loading, Notice } from '../ui/States';

/** An e-mail address as far as the browser can tell: something before and after one @, with a dot after it. */
const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);

/** Add an operator by the e-mail address of their account. */
function AddOperator({ onAdded }: { onAdded: (message: string) => void }) {
  const t = useT();
  const describe = useDescribeFailure();
  const add = useAddOperator();
  const id = useId();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeEmail(address)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    add.mutate(address, {
      onSuccess: (operator) => {
        setEmail('');
        onAdded(t('operators.added', { name: operator.username }));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`} data-testid="add-operator">
      <h3 id={`${id}-title`}>{t('operators.addTitle')}</h3>
      <FormField>
        <label htmlFor={`${id}-email`}>{t('operators.email')}</label>
        <Row style={{ flexWrap: 'nowrap' }}>
          <TextInput
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            value={email}
            maxLength={254}
            style={{ flex: '1 1 auto', minWidth: 0 }}
            aria-invalid={invalid || undefined}
            aria-describedby={`${id}-hint${invalid ? ` ${id}-problem` : ''}`}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? t('common.working') : t('operators.add')}
          </Button>
        </Row>
        <Hint id={`${id}-hint`}>{t('operators.emailHint')}</Hint>
        {invalid ? <FieldProblem id={`${id}-problem`}>{t('operators.problem.email')}</FieldProblem> : null}
      </FormField>
      {add.isError ? <ActionError message={describe('addOperator', add.error)} /> : null}
    </form>
  );
}

function OperatorItem({ operator, self, onRemove }: { operator: OperatorView; self: boolean; onRemove: () => void }) {
  const t = useT();
  const configured = operator.source === 'configured';
  return (
    <li data-testid="operator" data-operator={operator.id}>
      <Row>
        <strong>{operator.username}</strong>
        {self ? <Badge tone="accent">{t('operators.you')}</Badge> : null}
        <Badge>{configured ? t('operators.configured') : t('operators.granted')}</Badge>
      </Row>
      <p style={{ margin: '0.25rem 0', overflowWrap: 'anywhere' }}>{operator.email}</p>
      {configured ? (
        <Muted>{t('operators.configuredNote')}</Muted>
      ) : self ? (
        <Muted>{t('operators.selfNote')}</Muted>
      ) : (
        <Button type="button" variant="secondary" compact onClick={onRemove}>
          {t('operators.remove')}
        </Button>
      )}
    </li>
  );
}

/** Operators: who has this console (granted by an operator, or named in the configuration), add and remove. */
export default function OperatorsTab() {
  const t = useT();
  const describe = useDescribeFailure();
  const { user } = useAuth();
  const operators = useOperators();
  const remove = useRemoveOperator();
  const [removing, setRemoving] = useState<OperatorView | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    const name = removing.username;
    remove.mutate(removing.id, {
      onSuccess: () => {
        setRemoving(null);
        setDone(t('operators.removed', { name }));
      },
      onError: () => setRemoving(null),
    });
  };

  let body;
  if (operators.isPending) body = <Loading>{t('operators.loading')}</Loading>;
  else if (operators.isError && !operators.data)
    body = (
      <LoadError
        message={t('operators.loadFailed', { reason: describe('load', operators.error) })}
        onRetry={() => void operators.refetch()}
      />
    );
  else if (operators.data.length === 0) body = <Empty>{t('operators.empty')}</Empty>;
  else
    body = (
      <ItemList data-testid="operators">
        {operators.data.map((operator) => (
          <OperatorItem
            key={operator.id}
            operator={operator}
            self={operator.id === user?.id}
            onRemove={() => {
              setDone(null);
              remove.reset();
              setRemoving(operator);
            }}
          />
        ))}
      </ItemList>
    );

  const removedTarget = remove.variables ? operators.data?.find((operator) => operator.id === remove.variables) : null;
  return (
    <Panel aria-labelledby="admin-operators-title">
      <h2 id="admin-operators-title">{t('operators.title')}</h2>
      <Stack>
        <Muted>{t('operators.intro')}</Muted>
        {done ? <Notice>{done}</Notice> : null}
        {remove.isError ? (
          <ActionError
            message={describe('removeOperator', remove.error, {
              self: remove.variables === user?.id,
              configured: removedTarget?.source === 'configured',
            })}
          />
        ) : null}
        {body}
        <AddOperator
          onAdded={(message) => {
            remove.reset();
            setDone(message);
          }}
        />
      </Stack>
      {removing ? (
        <ConfirmDialog
          title={t('operators.removeTitle', { name: removing.username })}
          confirmLabel={t('operators.remove')}
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setRemoving(null)}
        >
          <p>{t('operators.removeText')}</p>
        </ConfirmDialog>
      ) : null}
    </Panel>
  );
}
