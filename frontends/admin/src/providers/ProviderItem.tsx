import { useEffect, useId, useRef } from 'react';
import type { AiProviderView } from '@kasa/contracts';
import { Button, Muted } from '@kasa/ui';
import { personaName, PERSONAS } from '@kasa/ui/aiProviders';
import { useTestProvider } from '../api/adminQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { useT, type MessageId } from '../i18n/useT';
import { Badge, Facts, Mono, Row } from '../ui/controls';
import { kindName } from './kindNames';
import { TestOutcome } from './TestOutcome';

const CIRCUIT_TEXT: Record<AiProviderView['circuit'], MessageId> = {
  closed: 'providers.circuit.closed',
  open: 'providers.circuit.open',
  'half-open': 'providers.circuit.halfOpen',
};

/**
 * One provider of the chain, at `index`: what it is and how it fared lately, and what the operator can do with it.
 * One from the environment only moves; one added in the console is also edited, switched off and on, and removed.
 * After a move, focus stays on the button pressed (or its twin, when the provider reached an end of the chain).
 */
export function ProviderItem({
  provider,
  index,
  count,
  moving,
  focusMove,
  onFocused,
  onMove,
  onEdit,
  onToggle,
  toggling,
  onRemove,
}: {
  provider: AiProviderView;
  index: number;
  count: number;
  moving: boolean;
  focusMove: -1 | 1 | null;
  onFocused: () => void;
  onMove: (by: -1 | 1) => void;
  onEdit: () => void;
  onToggle: () => void;
  toggling: boolean;
  onRemove: () => void;
}) {
  const t = useT();
  const formats = useFormats();
  const describe = useDescribeFailure();
  const titleId = useId();
  const test = useTestProvider();
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const fromEnvironment = provider.source === 'environment';
  const first = index === 0;
  const last = index === count - 1;

  useEffect(() => {
    if (focusMove === null || moving) return;
    const wanted = focusMove === -1 ? (first ? down : up) : last ? up : down;
    wanted.current?.focus();
    onFocused();
  }, [focusMove, moving, first, last, onFocused]);

  const personaModels = PERSONAS.flatMap((persona) => {
    const model = provider.personaModels[persona];
    return model ? [t('providers.personaModel', { persona: personaName(persona), model })] : [];
  });
  const { attempts, errorRate } = provider.recent;

  return (
    <li data-testid="provider" data-provider={provider.name} aria-labelledby={titleId}>
      <Row>
        <h3 id={titleId} style={{ margin: 0, overflowWrap: 'anywhere' }}>
          {provider.name}
        </h3>
        <Badge>{kindName(provider.kind, t)}</Badge>
        {fromEnvironment ? <Badge data-testid="from-environment">{t('providers.fromEnvironment')}</Badge> : null}
        {provider.enabled ? null : <Badge tone="danger">{t('providers.disabled')}</Badge>}
        <Badge tone={provider.circuit === 'closed' ? 'default' : 'danger'} data-circuit={provider.circuit}>
          {t(CIRCUIT_TEXT[provider.circuit])}
        </Badge>
      </Row>
      <Facts>
        <div>
          <dt>{t('providers.model')}</dt>
          <dd>
            <Mono>{provider.model}</Mono>
          </dd>
        </div>
        {provider.baseURL ? (
          <div>
            <dt>{t('providers.address')}</dt>
            <dd>
              <Mono dir="ltr">{provider.baseURL}</Mono>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t('providers.keyFact')}</dt>
          <dd data-testid="key-hint">
            {provider.key.set
              ? provider.key.hint
                ? t('providers.keyEndsIn', { hint: provider.key.hint })
                : t('providers.keySet')
              : t('providers.noKey')}
          </dd>
        </div>
        <div>
          <dt>{t('providers.recent')}</dt>
          <dd>
            {attempts === 0
              ? t('providers.noAttempts')
              : t('providers.attempts', { count: attempts, rate: formats.percent(errorRate) })}
          </dd>
        </div>
        <div>
          <dt>{t('providers.images')}</dt>
          <dd>{provider.vision ? t('providers.vision.yes') : t('providers.vision.no')}</dd>
        </div>
        {personaModels.length > 0 ? (
          <div>
            <dt>{t('providers.personaModels')}</dt>
            <dd>{personaModels.join(' · ')}</dd>
          </div>
        ) : null}
      </Facts>
      {fromEnvironment ? <Muted style={{ marginBottom: '0.75rem' }}>{t('providers.environmentNote')}</Muted> : null}
      <div style={{ marginBottom: '0.75rem' }}>
        <TestOutcome
          pending={test.isPending}
          result={test.data}
          failure={test.isError ? describe('testProvider', test.error) : undefined}
        />
      </div>
      <Row role="group" aria-labelledby={titleId}>
        <Button
          ref={up}
          type="button"
          variant="secondary"
          compact
          disabled={first || moving}
          onClick={() => onMove(-1)}
        >
          {t('providers.moveUp')}
        </Button>
        <Button
          ref={down}
          type="button"
          variant="secondary"
          compact
          disabled={last || moving}
          onClick={() => onMove(1)}
        >
          {t('providers.moveDown')}
        </Button>
        <Button
          type="button"
          variant="secondary"
          compact
          disabled={test.isPending}
          onClick={() => test.mutate({ name: provider.name })}
        >
          {test.isPending ? t('providers.testing') : t('providers.test')}
        </Button>
        {fromEnvironment ? null : (
          <>
            <Button type="button" variant="secondary" compact onClick={onEdit}>
              {t('providers.edit')}
            </Button>
            <Button type="button" variant="secondary" compact disabled={toggling} onClick={onToggle}>
              {provider.enabled ? t('providers.disable') : t('providers.enable')}
            </Button>
            <Button type="button" variant="ghost" compact onClick={onRemove}>
              {t('providers.remove')}
            </Button>
          </>
        )}
      </Row>
    </li>
  );
}
