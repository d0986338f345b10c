import styled from '@emotion/styled';
import { useCallback, useState } from 'react';
import type { AiProviderView } from '@kasa/contracts';
import { Button, Muted } from '@kasa/ui';
import { ConfirmDialog, LoadingSkeleton } from '@kasa/ui/widgets';
import { useDeleteProvider, useProviders, useReorderProviders, useUpdateProvider } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useT } from '../i18n/useT';
import { moveName } from '../providers/chainOrder';
import { LocalModelPanel } from '../providers/LocalModelPanel';
import { OllamaPanel } from '../providers/OllamaPanel';
import { ProviderDialog } from '../providers/ProviderDialog';
import { ProviderItem } from '../providers/ProviderItem';
import { ItemList, Panel, Row, Stack } from '../ui/controls';
import { ActionError, Empty, LoadError, Notice } from '../ui/States';

const Chain = ItemList.withComponent('ol');

/** The offline notes: always the chain's last answer, not a provider the operator moves or removes. */
const OfflineLine = styled.li`
  color: var(--kasa-muted);
`;

const KeysNote = styled.p`
  margin: 0;
  padding: 0.5rem 0.75rem;
  border: 1px solid var(--kasa-border);
  border-inline-start: 4px solid var(--kasa-accent);
  border-radius: var(--kasa-radius);
`;

type Editing = { kind: 'add' } | { kind: 'edit'; provider: AiProviderView } | null;

/**
 * AI providers: the chain a reply tries in order (the offline notes last), each provider's state and recent errors;
 * add, edit, test, switch off, remove and move them; a local Ollama found on this machine, and the local model file.
 */
export default function ProvidersTab() {
  const t = useT();
  const describe = useDescribeFailure();
  const list = useProviders();
  const reorder = useReorderProviders();
  const update = useUpdateProvider();
  const remove = useDeleteProvider();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<AiProviderView | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [moved, setMoved] = useState<{ name: string; by: -1 | 1 } | null>(null);
  const focused = useCallback(() => setMoved(null), []);

  const notice = (message: string | null) => {
    reorder.reset();
    update.reset();
    remove.reset();
    setDone(message);
  };

  const move = (name: string, by: -1 | 1) => {
    const names = list.data?.providers.map((provider) => provider.name) ?? [];
    const order = moveName(names, name, by);
    if (!order) return;
    notice(null);
    setMoved({ name, by });
    reorder.mutate(order, { onError: () => setMoved(null) });
  };

  const toggle = (provider: AiProviderView) => {
    notice(null);
    update.mutate(
      { name: provider.name, request: { enabled: !provider.enabled } },
      {
        onSuccess: (saved) =>
          setDone(
            saved.enabled
              ? t('providers.enabled', { name: saved.name })
              : t('providers.disabledDone', { name: saved.name }),
          ),
      },
    );
  };

  const confirmRemove = () => {
    if (!removing) return;
    const name = removing.name;
    remove.mutate(name, {
      onSuccess: () => {
        setRemoving(null);
        setDone(t('providers.removed', { name }));
      },
      onError: () => setRemoving(null),
    });
  };

  const providers = list.data?.providers ?? [];
  let body;
  if (list.isPending) body = <LoadingSkeleton lines={4}>{t('providers.loading')}</LoadingSkeleton>;
  else if (list.isError && !list.data)
    body = (
      <LoadError
        message={t('providers.loadFailed', { reason: describe('load', list.error) })}
        onRetry={() => void list.refetch()}
      />
    );
  else
    body = (
      <>
        {providers.length === 0 ? <Empty testId="providers-empty">{t('providers.empty')}</Empty> : null}
        <Chain data-testid="providers" aria-label={t('providers.chain')}>
          {providers.map((provider, index) => (
            <ProviderItem
              key={provider.name}
              provider={provider}
              index={index}
              count={providers.length}
              moving={reorder.isPending}
              focusMove={moved?.name === provider.name ? moved.by : null}
              onFocused={focused}
              onMove={(by) => move(provider.name, by)}
              onEdit={() => {
                notice(null);
                setEditing({ kind: 'edit', provider });
              }}
              toggling={update.isPending && update.variables?.name === provider.name}
              onToggle={() => toggle(provider)}
              onRemove={() => {
                notice(null);
                setRemoving(provider);
              }}
            />
          ))}
          <OfflineLine data-testid="offline-notes">
            <strong>{t('providers.offline')}</strong> {t('providers.offlineNote')}
          </OfflineLine>
        </Chain>
      </>
    );

  const failure = reorder.isError
    ? describe('reorderProviders', reorder.error)
    : update.isError
      ? describe('updateProvider', update.error)
      : remove.isError
        ? describe('removeProvider', remove.error)
        : null;

  return (
    <Stack>
      <Panel aria-labelledby="admin-providers-title">
        <h2 id="admin-providers-title">{t('providers.title')}</h2>
        <Stack>
          <Muted>{t('providers.intro')}</Muted>
          {list.data && !list.data.keysStorable ? (
            <KeysNote data-testid="keys-note">{t('providers.keysNotStorable')}</KeysNote>
          ) : null}
          {done ? <Notice>{done}</Notice> : null}
          {failure ? <ActionError message={failure} /> : null}
          {body}
          {list.data ? (
            <Row>
              <Button
                type="button"
                onClick={() => {
                  notice(null);
                  setEditing({ kind: 'add' });
                }}
              >
                {t('providers.addButton')}
              </Button>
            </Row>
          ) : null}
        </Stack>
      </Panel>
      {list.data ? <OllamaPanel providers={providers} onNotice={notice} /> : null}
      {list.data ? <LocalModelPanel providers={providers} onNotice={notice} /> : null}
      {editing && list.data ? (
        <ProviderDialog
          list={list.data}
          view={editing.kind === 'edit' ? editing.provider : undefined}
          onCancel={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            notice(message);
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={t('providers.removeTitle', { name: removing.name })}
          confirmLabel={t('providers.remove')}
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setRemoving(null)}
        >
          <p>{t('providers.removeText')}</p>
        </ConfirmDialog>
      ) : null}
    </Stack>
  );
}
